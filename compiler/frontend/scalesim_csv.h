#pragma once
// SCALE-Sim v2 topology CSV files, read with SCALE-Sim's own rules (scalesim/topology_utils.py)
// so that a file SCALE-Sim accepts means the same layers here:
//  - the first line is a header and is skipped; blank lines are skipped;
//  - conv rows: `name, ifmap_h, ifmap_w, filter_h, filter_w, channels, num_filter, stride,`
//    with an optional 9th field stride_w (else stride_w = stride); the ifmap is already padded,
//    and SCALE-Sim sizes the output as ceil((ifmap - filter + stride) / stride), so the op gets
//    pad = 0 except where that ceil needs one extra zero row/column (see ceil_padding); a name
//    containing "DP" is depthwise: `channels` 1-channel convolutions of `num_filter` filters
//    each, i.e. one conv2d with groups = channels and k = channels * num_filter;
//  - GEMM files (header starting `Layer, M, N, K`): rows `name, M, N, K,`.
// SCALE-Sim drops the field after the last comma; we also accept rows without the trailing
// comma, and ignore columns past the ones used (SCALE-Sim's own Resnet50.csv carries notes
// there). Layer names are kept as op names, duplicates included, as SCALE-Sim does.
#include <filesystem>
#include <string>

#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::Graph load_scalesim_csv(const std::filesystem::path& path);

// `file_label` names the source in errors; the graph takes `graph_name`.
ir::Graph parse_scalesim_csv(const std::string& text, const std::string& file_label,
                             const std::string& graph_name);

}  // namespace polyarch::frontend
