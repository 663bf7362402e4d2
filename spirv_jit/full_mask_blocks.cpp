#include "full_mask_blocks.h"

namespace tessera::jit {

namespace {

bool makesCall(const Block& b) {
  for (const Instruction& i : b.body)
    if (i.op == spv::Op::OpFunctionCall) return true;
  return false;
}

// Whether every lane entering the construct headed by `h` leaves it through its merge block,
// and the merge is entered from nowhere else: no block of the construct returns, terminates
// lanes, is unreachable or branches out of it (an outer loop's merge or continue target, which
// the walk would follow until it meets a return or a back-edge to a header outside the
// construct). Back-edges to headers inside the construct (nested loops, and h's own back-edge
// when h is a loop header) stay inside.
bool closedConstruct(const Function& f, const StructuredCfg& cfg, uint32_t h, bool callsMayTerminate) {
  const Block& hb = f.blocks[h];
  auto merge = f.blockIndex.find(hb.mergeBlock);
  if (hb.mergeKind == spv::Op::OpNop || merge == f.blockIndex.end()) return false;
  const uint32_t m = merge->second;
  std::vector<uint8_t> inside(f.blocks.size(), 0);
  std::vector<uint32_t> stack{h};
  inside[h] = 1;
  while (!stack.empty()) {
    const uint32_t x = stack.back();
    stack.pop_back();
    const Block& xb = f.blocks[x];
    const spv::Op op = xb.terminator.op;
    if (op != spv::Op::OpBranch && op != spv::Op::OpBranchConditional && op != spv::Op::OpSwitch) return false;
    if (callsMayTerminate && makesCall(xb)) return false;
    for (uint32_t label : xb.successors) {
      auto it = f.blockIndex.find(label);
      if (it == f.blockIndex.end()) return false;
      const uint32_t s = it->second;
      if (s == m) continue;
      if (cfg.isBackEdge(x, s)) {
        if (inside[s]) continue;
        return false;
      }
      if (!inside[s]) {
        inside[s] = 1;
        stack.push_back(s);
      }
    }
  }
  for (uint32_t p : cfg.predecessors[m])
    if (cfg.position[p] >= 0 && !inside[p]) return false;
  return true;
}

}  // namespace

bool terminatorIsUniform(const Block& b, const Uniformity& uniformity) {
  const Instruction& t = b.terminator;
  switch (t.op) {
    case spv::Op::OpBranch:
      return true;
    case spv::Op::OpBranchConditional:
      return t.operand(1) == t.operand(2) || !uniformity.isVarying(t.operand(0));
    case spv::Op::OpSwitch:
      return !uniformity.isVarying(t.operand(0));
    default:
      return true;  // no successor
  }
}

bool exitsWithAllLanes(const Block& b, const Uniformity& uniformity, bool callsMayTerminate) {
  return terminatorIsUniform(b, uniformity) && !(callsMayTerminate && makesCall(b));
}

std::vector<uint8_t> findFullMaskBlocks(const Function& f, const StructuredCfg& cfg, const Uniformity& uniformity,
                                        bool callsMayTerminate) {
  const uint32_t n = uint32_t(f.blocks.size());
  std::vector<uint8_t> full(n, 0), uniformExit(n, 0), closedHeader(n, 0);
  std::vector<std::vector<uint32_t>> headersMergingAt(n);
  for (uint32_t b = 0; b < n; ++b) {
    if (cfg.position[b] < 0) continue;
    full[b] = 1;
    uniformExit[b] = exitsWithAllLanes(f.blocks[b], uniformity, callsMayTerminate);
    if (f.blocks[b].mergeKind != spv::Op::OpNop && closedConstruct(f, cfg, b, callsMayTerminate)) {
      closedHeader[b] = 1;
      headersMergingAt[f.blockIndex.at(f.blocks[b].mergeBlock)].push_back(b);
    }
  }
  // A construct is entered with all lanes when its header is full, or, for a loop whose header
  // is masked (lanes leave in different iterations), when every edge into the loop from
  // outside comes from a full block with all its lanes.
  auto enteredWithAllLanes = [&](uint32_t h) {
    if (full[h]) return true;
    if (f.blocks[h].mergeKind != spv::Op::OpLoopMerge) return false;
    for (uint32_t p : cfg.predecessors[h])
      if (cfg.position[p] >= 0 && !cfg.isBackEdge(p, h) && !(full[p] && uniformExit[p])) return false;
    return true;
  };
  // Greatest fixed point: only ever clears flags, so it ends after at most n passes.
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : cfg.order) {
      if (b == 0 || !full[b]) continue;
      bool fromFull = true;
      for (uint32_t p : cfg.predecessors[b])
        if (cfg.position[p] >= 0 && !(full[p] && uniformExit[p])) {
          fromFull = false;
          break;
        }
      bool closedMerge = false;
      for (uint32_t h : headersMergingAt[b]) closedMerge |= closedHeader[h] && enteredWithAllLanes(h);
      if (!fromFull && !closedMerge) {
        full[b] = 0;
        changed = true;
      }
    }
  }
  return full;
}

}  // namespace tessera::jit
