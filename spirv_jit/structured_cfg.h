// Block order and loop ranges for mask-based SIMD execution of a structured SPIR-V function.
//
// The translator runs a function's blocks one after the other in "structured order": a
// reverse post-order in which each construct's merge block is visited first (so it comes after
// every block of the construct) and a loop's continue target before its body's other
// successors (so the continue construct comes after the body). In that order every forward
// edge goes forward, each loop occupies a contiguous range [header, merge), and the only
// backward edges are loop back-edges to a header.
#pragma once

#include <cstdint>
#include <vector>

#include "spirv_module.h"

namespace tessera::jit {

struct StructuredCfg {
  std::vector<uint32_t> order;                   // block indices, structured order
  std::vector<int> position;                     // block index -> position in order, -1 if unreachable
  std::vector<std::vector<uint32_t>> predecessors;  // block index -> predecessor block indices
  // Position p -> loop headers (block indices) whose loop's last block is order[p], innermost first.
  std::vector<std::vector<uint32_t>> loopsEndingAt;
  // Block index -> innermost loop header containing it (itself for a header), or -1.
  std::vector<int> innermostLoop;
  // Block index -> position of the loop's last block, for loop headers; -1 otherwise.
  std::vector<int> loopLast;

  bool isBackEdge(uint32_t from, uint32_t to) const { return position[to] <= position[from]; }
  // True when block `b` lies inside the loop headed by `header` (by position range).
  bool inLoop(uint32_t header, uint32_t b) const {
    return position[b] >= position[header] && position[b] <= loopLast[header];
  }
};

StructuredCfg buildStructuredCfg(const Function& function);

}  // namespace tessera::jit
