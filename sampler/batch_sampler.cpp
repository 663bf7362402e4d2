// The exact batched sampling routines' tables (the routines: batch_sampler_exact.h, instantiated
// per lane count in batch_sampler_exact_4/8/16.cpp) and what routine_choice.cpp asks of them.
#include "batch_sampler_exact.h"

namespace tessera::sampler_detail::batch {

namespace {

const ExactRoutineRows& rows(uint32_t widthRow) {
  static const ExactRoutineRows byWidth[3] = {exactRoutines4(), exactRoutines8(), exactRoutines16()};
  return byWidth[widthRow];
}

}  // namespace

SampleRoutine exactRoutine(uint32_t widthRow, uint32_t samplerClass) { return rows(widthRow).isotropic[samplerClass - 1]; }
SampleRoutine anisotropicRoutine(uint32_t widthRow, uint32_t samplerClass) {
  return rows(widthRow).anisotropic[samplerClass - 9];
}
uint32_t exactTexelSize(uint32_t viewCode) { return exact::texelFormat(viewCode).size; }

}  // namespace tessera::sampler_detail::batch
