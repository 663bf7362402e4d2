#include "runtime.h"

#include <cstdint>
#include <cstring>

#include "runtime_image.h"
#include "sanitizer_fiber.h"
#include "tessera/shader_abi.h"
#include "tessera/texel_codec.h"

#if TESSERA_FIBER_ASAN
#include <sanitizer/asan_interface.h>
// JIT code is not instrumented, and its stack may hold stale poison of instrumented frames
// that ran on the same memory before (an exception unwinding a fiber leaves some): the
// helpers below are handed the kernel's own variables, so they unpoison them before the
// (intercepted) memset and memmove look.
#define TESSERA_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define TESSERA_UNPOISON(p, n) ((void)0)
#endif

using tessera::abi::ImageDescriptor;

extern "C" {
void tessera_rt_barrier(tessera::abi::WorkgroupState* wg);
void* tessera_rt_coroutine_frame(tessera::abi::WorkgroupState* wg, uint64_t bytes, uint32_t batch);
void tessera_rt_image_sample(const ImageDescriptor*, const ImageDescriptor*, uint32_t, const uint32_t*, uint32_t*);
void tessera_rt_image_sample_batch(const ImageDescriptor*, const ImageDescriptor*, uint32_t, uint32_t, uint32_t,
                                   const uint32_t*, uint32_t*);
void tessera_rt_inline_sample_refresh(const ImageDescriptor*, const ImageDescriptor*, tessera::abi::InlineSampleState*, uint32_t,
                                      float, float, float, float);
uint64_t tessera_rt_read_clock();
// Zeroes the active lanes' scalars of `rows` rows of `width` scalars of scalarBytes each
// (Function and Private memory keeps W interleaved copies: Translator::zeroStorage).
void tessera_rt_zero_lanes(uint8_t* rows, uint64_t rowCount, uint32_t scalarBytes, uint32_t width, uint32_t laneBits) {
  const uint64_t rowBytes = uint64_t(scalarBytes) * width;
  TESSERA_UNPOISON(rows, rowCount * rowBytes);
  if (laneBits == (width == 32 ? ~0u : (1u << width) - 1)) {  // every lane: the rows are contiguous
    std::memset(rows, 0, rowCount * rowBytes);
    return;
  }
  for (uint64_t r = 0; r < rowCount; ++r)
    for (uint32_t l = 0; l < width; ++l)
      if (laneBits >> l & 1u) std::memset(rows + r * rowBytes + uint64_t(l) * scalarBytes, 0, scalarBytes);
}
// Copies the active lanes' scalars of `rowCount` rows from `from` to `to` (the same layout as
// tessera_rt_zero_lanes; the regions may be one and the same, never partly overlapping).
void tessera_rt_copy_lanes(uint8_t* to, const uint8_t* from, uint64_t rowCount, uint32_t scalarBytes, uint32_t width,
                           uint32_t laneBits) {
  const uint64_t rowBytes = uint64_t(scalarBytes) * width;
  TESSERA_UNPOISON(to, rowCount * rowBytes);
  TESSERA_UNPOISON(from, rowCount * rowBytes);
  if (laneBits == (width == 32 ? ~0u : (1u << width) - 1)) {
    std::memmove(to, from, rowCount * rowBytes);
    return;
  }
  for (uint64_t r = 0; r < rowCount; ++r)
    for (uint32_t l = 0; l < width; ++l)
      if (laneBits >> l & 1u)
        std::memmove(to + r * rowBytes + uint64_t(l) * scalarBytes, from + r * rowBytes + uint64_t(l) * scalarBytes,
                     scalarBytes);
}
// Kernels whose resources are null, or name no cancel word, read these (Translator::cancelWord).
const tessera::abi::BoundResources tessera_rt_null_resources{};
const uint32_t tessera_rt_never_cancelled = 0;
}

namespace tessera::jit {

std::vector<HostSymbol> runtimeSymbols() {
  return {
      {"tessera_rt_barrier", reinterpret_cast<void*>(&tessera_rt_barrier)},
      {"tessera_rt_zero_lanes", reinterpret_cast<void*>(&tessera_rt_zero_lanes)},
      {"tessera_rt_copy_lanes", reinterpret_cast<void*>(&tessera_rt_copy_lanes)},
      {"tessera_rt_coroutine_frame", reinterpret_cast<void*>(&tessera_rt_coroutine_frame)},
      {"tessera_rt_null_resources", const_cast<void*>(static_cast<const void*>(&tessera_rt_null_resources))},
      {"tessera_rt_never_cancelled", const_cast<void*>(static_cast<const void*>(&tessera_rt_never_cancelled))},
      {"tessera_rt_image_read", reinterpret_cast<void*>(&tessera_rt_image_read)},
      {"tessera_rt_image_write", reinterpret_cast<void*>(&tessera_rt_image_write)},
      {"tessera_rt_image_texel", reinterpret_cast<void*>(&tessera_rt_image_texel)},
      {"tessera_rt_image_query", reinterpret_cast<void*>(&tessera_rt_image_query)},
      {"tessera_rt_texel_buffer_read", reinterpret_cast<void*>(&tessera_rt_texel_buffer_read)},
      {"tessera_rt_texel_buffer_write", reinterpret_cast<void*>(&tessera_rt_texel_buffer_write)},
      {"tessera_rt_texel_buffer_texel", reinterpret_cast<void*>(&tessera_rt_texel_buffer_texel)},
      {"tessera_rt_texel_buffer_size", reinterpret_cast<void*>(&tessera_rt_texel_buffer_size)},
      {"tessera_rt_image_sample", reinterpret_cast<void*>(&tessera_rt_image_sample)},
      {"tessera_rt_image_sample_batch", reinterpret_cast<void*>(&tessera_rt_image_sample_batch)},
      {"tessera_rt_inline_sample_refresh", reinterpret_cast<void*>(&tessera_rt_inline_sample_refresh)},
      {"tessera_rt_read_clock", reinterpret_cast<void*>(&tessera_rt_read_clock)},
      // The texel codec's 256-entry UNORM8 and sRGB8 float tables, for the kernels' inline
      // texelFetch of 8-bit RGBA views (translate_image.cpp, plainWordsOr).
      {"tessera_rt_unorm8_table", const_cast<float*>(tessera::unorm8Table())},
      {"tessera_rt_srgb8_table", const_cast<float*>(tessera::srgb8Table())},
  };
}

}  // namespace tessera::jit
