// The exact batched sampling routines for W = 4 lanes (batch_sampler_exact.h): each filter pair
// and mipmap mode, and the anisotropic ones, cloned for x86-64, -v3 and -v4.
#include "batch_sampler_exact.h"

namespace tessera::sampler_detail::exact {
namespace {

TESSERA_SAMPLE_ROUTINES_N(4)
TESSERA_ANISO_ROUTINES_N(4)

const SampleRoutine kIsotropic[8] = TESSERA_ROUTINE_ROW(4);
const SampleRoutine kAnisotropic[8] = TESSERA_ANISO_ROW(4);

}  // namespace
}  // namespace tessera::sampler_detail::exact

namespace tessera::sampler_detail::batch {

ExactRoutineRows exactRoutines4() { return {exact::kIsotropic, exact::kAnisotropic}; }

}  // namespace tessera::sampler_detail::batch
