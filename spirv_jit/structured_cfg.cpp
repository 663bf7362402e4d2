#include "structured_cfg.h"

#include <algorithm>

namespace tessera::jit {

StructuredCfg buildStructuredCfg(const Function& f) {
  const uint32_t n = uint32_t(f.blocks.size());
  StructuredCfg cfg;
  cfg.position.assign(n, -1);
  cfg.predecessors.assign(n, {});
  cfg.innermostLoop.assign(n, -1);
  cfg.loopLast.assign(n, -1);
  auto indexOf = [&](uint32_t label) -> int {
    auto it = f.blockIndex.find(label);
    return it == f.blockIndex.end() ? -1 : int(it->second);
  };
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t s : f.blocks[b].successors)
      if (int si = indexOf(s); si >= 0) cfg.predecessors[si].push_back(b);

  // DFS successor lists: merge first, then continue target, then the real successors.
  std::vector<std::vector<uint32_t>> visitList(n);
  for (uint32_t b = 0; b < n; ++b) {
    const Block& blk = f.blocks[b];
    auto push = [&](uint32_t label) {
      int i = indexOf(label);
      if (i >= 0 && std::find(visitList[b].begin(), visitList[b].end(), uint32_t(i)) == visitList[b].end())
        visitList[b].push_back(uint32_t(i));
    };
    if (blk.mergeKind != spv::Op::OpNop) push(blk.mergeBlock);
    if (blk.mergeKind == spv::Op::OpLoopMerge) push(blk.continueTarget);
    for (uint32_t s : blk.successors) push(s);
  }

  // Iterative DFS producing post-order.
  std::vector<uint32_t> postOrder;
  std::vector<uint8_t> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  if (n) {
    stack.push_back({0, 0});
    state[0] = 1;
  }
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < visitList[b].size()) {
      uint32_t s = visitList[b][next++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      }
      continue;
    }
    state[b] = 2;
    postOrder.push_back(b);
    stack.pop_back();
  }
  cfg.order.assign(postOrder.rbegin(), postOrder.rend());
  for (uint32_t p = 0; p < cfg.order.size(); ++p) cfg.position[cfg.order[p]] = int(p);
  cfg.loopsEndingAt.assign(cfg.order.size(), {});

  // Loop ranges: [header, merge). A merge that is unreachable still has a position because the
  // DFS visits merge blocks; loops are nested, so ranges nest too.
  std::vector<uint32_t> headers;
  for (uint32_t p = 0; p < cfg.order.size(); ++p) {
    uint32_t b = cfg.order[p];
    const Block& blk = f.blocks[b];
    if (blk.mergeKind != spv::Op::OpLoopMerge) continue;
    int m = indexOf(blk.mergeBlock);
    int last = m >= 0 && cfg.position[m] > int(p) ? cfg.position[m] - 1 : int(cfg.order.size()) - 1;
    cfg.loopLast[b] = last;
    headers.push_back(b);
  }
  // Innermost first at each end position: a later-starting loop that ends at the same place is
  // nested inside an earlier one.
  for (auto it = headers.rbegin(); it != headers.rend(); ++it)
    cfg.loopsEndingAt[cfg.loopLast[*it]].push_back(*it);
  for (uint32_t h : headers)  // outer loops first (headers are in order), inner ones overwrite
    for (int p = cfg.position[h]; p <= cfg.loopLast[h]; ++p) cfg.innermostLoop[cfg.order[p]] = int(h);
  return cfg;
}

}  // namespace tessera::jit
