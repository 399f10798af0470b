#pragma once
// Fused or unfused attention, decided per op for the SoC at hand. A fused attention op runs as
// one flash-style kernel on a unit that implements it; the unfused form (QKᵀ, softmax, PV:
// compiler/lower/unfused_attention.h) lets a matrix engine without softmax run the products
// while another unit runs the softmax. With mapping search the form with the smaller analytical
// estimate runs (each part on the unit that runs it fastest); with fixed mappings the fused form
// runs wherever a unit implements it. The graph is rewritten in place.
#include <string>
#include <vector>

#include "archs/soc/soc_config.h"
#include "compiler/ir/graph.h"
#include "sim/result.h"

namespace polyarch::driver {

// One entry per attention op, in topological order. An attention op that no form can run stays
// whole, its entry saying why each form fails, for the caller to refuse or skip with the other
// ops no unit runs.
std::vector<sim::AttentionForm> choose_attention_forms(const archs::SocConfig& soc,
                                                       ir::Graph& graph, bool search_forms);

// "attention forms:" and two lines per op (its form and both estimates; the reason) for the
// terminal; empty without attention ops.
std::string attention_forms_text(const std::vector<sim::AttentionForm>& forms);

}  // namespace polyarch::driver
