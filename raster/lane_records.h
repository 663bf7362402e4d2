// Kernel batches hold a value's components component-major (component c of lane l at
// c * W + l: shader_abi.h); shaded-vertex records hold each vertex's words together. These copy
// four components of the batch's first `count` lanes into their records: lane l's four words
// go to record + l * stride + offset (words).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::raster {

// rows: the four components' rows of W words (row c at rows + c * W).
void storeLaneQuads(const void* rows, uint32_t W, uint32_t count, uint32_t* records, size_t stride, size_t offset);

// The same one word at a time: the definition the vector version is tested against
// (tests/unit/raster/lane_records_test.cpp).
void storeLaneQuadsPortable(const void* rows, uint32_t W, uint32_t count, uint32_t* records, size_t stride, size_t offset);

}  // namespace tessera::raster
