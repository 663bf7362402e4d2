// TESSERA_CAPTURE_FRAMES syntax (icd/wsi_capture.h): N, A-B, every:N, all, comma-separated.
#include <gtest/gtest.h>

#include "wsi_capture.h"

namespace {

using tessera::FrameSelection;

TEST(CaptureFrames, NumbersRangesAndEveryNth) {
  auto sel = FrameSelection::parse("1,10, 100-110 ,every:1000");
  ASSERT_TRUE(sel.has_value());
  for (uint64_t f : {1, 10, 100, 105, 110, 1000, 2000, 5000}) EXPECT_TRUE(sel->contains(f)) << f;
  for (uint64_t f : {0, 2, 9, 11, 99, 111, 999, 1001}) EXPECT_FALSE(sel->contains(f)) << f;
}

TEST(CaptureFrames, AllAndEveryOneTakeEverything) {
  for (const char* text : {"all", "every:1"}) {
    auto sel = FrameSelection::parse(text);
    ASSERT_TRUE(sel.has_value()) << text;
    for (uint64_t f : {1, 2, 3, 12345}) EXPECT_TRUE(sel->contains(f));
  }
  EXPECT_TRUE(FrameSelection::everything().contains(7));
}

TEST(CaptureFrames, AnythingElseIsRejected) {
  for (const char* text : {"", "x", "1,", ",1", "5-3", "every:0", "every:", "every:x", "1-", "-3", "1 2", "1..3", "-1",
                           "all,junk", "18446744073709551616"})
    EXPECT_FALSE(FrameSelection::parse(text).has_value()) << '"' << text << '"';
}

TEST(CaptureFrames, FileNamesCarryTheFrameNumber) {
  EXPECT_EQ(tessera::captureFileName("/tmp/c", 7), "/tmp/c/frame-000007.png");
  EXPECT_EQ(tessera::captureFileName("d", 12345678), "d/frame-12345678.png");
}

}  // namespace
