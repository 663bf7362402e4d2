// Masked stores whose mask is whole at run time, stored plainly. Without AVX-512, LLVM lowers
// llvm.masked.store to VPMASKMOVD / VMASKMOVPS, which on AMD Zen 3 take about seven cycles per
// store where a plain vector store takes one (measured on this project's machine: 2.3 ns
// against 0.5 ns per 16-byte store; the masked loads cost about what plain ones do). A kernel's
// masks are run-time values (the batch's live lanes, a block's covered pixels) that are whole
// most of the time, so each masked store whose mask is not a constant becomes a branch on the
// mask being all ones: a plain store there, the masked store otherwise. Hosts with AVX-512
// keep their masked stores, which cost what plain ones do.
#pragma once

namespace llvm {
class Module;
}

namespace tessera::jit {

// Rewrites every llvm.masked.store with a non-constant mask as above (after the optimizer, so
// masks it folded to constants are left to it). Returns how many were rewritten.
unsigned storeWholeMasksPlainly(llvm::Module& module);

// The same for llvm.masked.load: a plain load when the mask is whole, the masked one otherwise,
// the two joined where the load was. VPMASKMOVD loads cost what plain ones do while the data
// is in cache, but a kernel streaming through memory with them reads far below the bandwidth
// plain loads reach on this AMD Zen 3 host (measured, session 37: bench saxpy 72.7 -> 45.8 ms,
// reduction 1.2x, by A/B).
unsigned loadWholeMasksPlainly(llvm::Module& module);

}  // namespace tessera::jit
