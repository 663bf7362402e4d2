// A thread's reusable kernel interface array that reads as zeros wherever the current call has
// not written, without clearing all of it per call. The draw stages' input arrays are sized
// for every interface location (kMaxInterfaceLocations x 4 components x W lanes, times six
// vertices for a geometry shader: 48 KiB at W = 16) while a draw writes a few locations;
// clearing the whole array for each small draw was 8-14% of the CTS's multi_draw mosaic cases.
// Zero where nothing was written keeps a kernel that reads an unwritten location
// deterministic (the same value at every thread count), as clearing everything did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tessera::raster {

class ZeroedSlices {
 public:
  // The array of `slices` slices of `sliceWords` words each, all zero but for slices marked
  // written after this call.
  uint32_t* reset(size_t slices, size_t sliceWords) {
    if (words_.size() != slices * sliceWords || sliceWords_ != sliceWords) {
      words_.assign(slices * sliceWords, 0);
      sliceWords_ = sliceWords;
      written_.clear();
    } else {
      for (const uint32_t slice : written_) std::memset(&words_[size_t(slice) * sliceWords_], 0, sliceWords_ * 4);
      written_.clear();
    }
    return words_.data();
  }
  // Slice `slice` gets values other than zero (the next reset clears it again). Marking a
  // slice twice only clears it twice.
  void markWritten(size_t slice) { written_.push_back(uint32_t(slice)); }

 private:
  std::vector<uint32_t> words_;
  size_t sliceWords_ = 0;
  std::vector<uint32_t> written_;
};

}  // namespace tessera::raster
