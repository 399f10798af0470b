#include "archs/dataflow/placement_picture.h"

#include <algorithm>
#include <map>

namespace polyarch::archs::dataflow {

namespace {

// Pictures get large fabrics too; beyond this many columns or rows the picture is cut.
constexpr int64_t kMaxSide = 32;

struct PeUse {
  int64_t macs = 0;
  int64_t alus = 0;
};

struct MemoryUse {
  int64_t loads = 0;
  int64_t stores = 0;
};

std::string pe_cell(const PeUse& use) {
  const int64_t nodes = use.macs + use.alus;
  if (nodes == 0) return "  .";
  const char kind = use.macs >= use.alus ? 'M' : 'A';
  const std::string count = nodes > 9 ? "+" : std::to_string(nodes);
  return std::string(" ") + kind + count;
}

char memory_char(const MemoryUse& use) {
  if (use.loads > 0 && use.stores > 0) return 'B';
  if (use.loads > 0) return 'L';
  return use.stores > 0 ? 'S' : '-';
}

}  // namespace

std::vector<std::string> placement_picture(const Fabric& fabric, const Dfg& dfg,
                                           const Placement& placement) {
  std::vector<PeUse> pes(static_cast<std::size_t>(fabric.pe_count()));
  std::vector<MemoryUse> memories(static_cast<std::size_t>(fabric.memory_count()));
  for (std::size_t node = 0; node < dfg.nodes.size(); ++node) {
    const Site& site = placement.sites[node];
    const NodeKind kind = dfg.nodes[node].kind;
    if (site.memory) {
      MemoryUse& use = memories[static_cast<std::size_t>(site.index)];
      (kind == NodeKind::kLoad ? use.loads : use.stores) += 1;
    } else {
      PeUse& use = pes[static_cast<std::size_t>(site.index)];
      (kind == NodeKind::kMac ? use.macs : use.alus) += 1;
    }
  }
  const int64_t rows = std::min(fabric.rows(), kMaxSide);
  const int64_t cols = std::min(fabric.cols(), kMaxSide);
  // Edge characters: the most telling memory PE of those attached to each edge PE and side.
  std::map<std::pair<int64_t, int64_t>, char> edge;  // (side, edge PE) -> char
  for (int64_t memory = 0; memory < fabric.memory_count(); ++memory) {
    const char shown = memory_char(memories[static_cast<std::size_t>(memory)]);
    char& slot = edge[{fabric.memory_side(memory), fabric.attach_pe(memory)}];
    if (slot == 0 || slot == '-')
      slot = shown;
    else if (shown != '-' && shown != slot)
      slot = 'B';
  }
  auto edge_char = [&](int64_t side, int64_t pe) {
    auto found = edge.find({side, pe});
    return found == edge.end() ? ' ' : found->second;
  };
  std::vector<std::string> lines;
  auto border = [&](int64_t side, int64_t row) {
    std::string line = "   ";
    for (int64_t col = 0; col < cols; ++col) {
      line += std::string("  ") + edge_char(side, row * fabric.cols() + col);
    }
    lines.push_back(line);
  };
  border(0, 0);
  for (int64_t row = 0; row < rows; ++row) {
    std::string line = std::string("  ") + edge_char(2, row * fabric.cols());
    for (int64_t col = 0; col < cols; ++col) {
      line += pe_cell(pes[static_cast<std::size_t>(row * fabric.cols() + col)]);
    }
    line += std::string("  ") + edge_char(3, row * fabric.cols() + fabric.cols() - 1);
    lines.push_back(line);
  }
  border(1, fabric.rows() - 1);
  return lines;
}

}  // namespace polyarch::archs::dataflow
