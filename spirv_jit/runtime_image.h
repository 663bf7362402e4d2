// The image helpers generated kernels call for storage images, sampled-image fetches and texel
// buffers (runtime_image.cpp): coordinates as the shader gave them, bounds-checked, texels as
// four result words ("Conversion to RGBA"). Declared once for the runtime's symbol table and the
// tests that hold the kernels' inline paths to them.
#pragma once

#include <cstdint>

#include "tessera/shader_abi.h"

extern "C" {
void tessera_rt_image_read(const tessera::abi::ImageDescriptor* d, int32_t x, int32_t y, int32_t z, int32_t sample,
                           int32_t lod, uint32_t* out);
void tessera_rt_image_write(const tessera::abi::ImageDescriptor* d, int32_t x, int32_t y, int32_t z, int32_t sample,
                            int32_t lod, const uint32_t* in);
void* tessera_rt_image_texel(const tessera::abi::ImageDescriptor* d, int32_t x, int32_t y, int32_t z, int32_t sample);
void tessera_rt_image_query(const tessera::abi::ImageDescriptor* d, int32_t lod, uint32_t* out);
void tessera_rt_texel_buffer_read(const tessera::abi::TexelBufferDescriptor* d, int32_t index, uint32_t* out);
void tessera_rt_texel_buffer_write(const tessera::abi::TexelBufferDescriptor* d, int32_t index, const uint32_t* in);
void* tessera_rt_texel_buffer_texel(const tessera::abi::TexelBufferDescriptor* d, int32_t index);
uint32_t tessera_rt_texel_buffer_size(const tessera::abi::TexelBufferDescriptor* d);
}
