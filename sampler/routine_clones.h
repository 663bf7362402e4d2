// The ISA clones of the batched sampling routines: each routine (and the out-of-line helpers
// they call) is compiled for x86-64, x86-64-v3 (AVX2) and x86-64-v4 (AVX-512) and the loader
// picks the host's at start-up (GCC's target_clones; a clone calls its callees' clone of the
// same ISA directly).
//
// Sanitizer builds (TESSERA_SANITIZER_BUILD, cmake/sanitizers.cmake) compile one, the baseline:
// the three clones are the same source, so an out-of-bounds access is in all or none of them,
// and three instrumented copies tripled the ASan job's longest compiles.
#pragma once

#if defined(TESSERA_SANITIZER_BUILD)
#define TESSERA_ROUTINE_CLONES
#else
#define TESSERA_ROUTINE_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#endif
