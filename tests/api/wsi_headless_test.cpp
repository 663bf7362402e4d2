// Presentation without a display (VK_KHR_surface, VK_EXT_headless_surface, VK_KHR_swapchain)
// through the loader with validation, and frame capture (TESSERA_CAPTURE_DIR/_FRAMES): frames
// are rendered into acquired images, presented, and the captured PNG files are read back.
#include <cmath>

#include "bare_device.h"
#include "wsi_fixture.h"

namespace tessera_test {
namespace {

class Wsi : public WsiTest {
 protected:
  Wsi() : WsiTest(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME) {}
  void createSurface() override {
    VkHeadlessSurfaceCreateInfoEXT sci{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
    auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateHeadlessSurfaceEXT"));
    ASSERT_NE(create, nullptr);
    VK_CHECK(create(instance, &sci, nullptr, &surface));
  }
};

TEST_F(Wsi, HeadlessSurfaceReportsWhatItSupports) {
  VkBool32 supported = VK_FALSE;
  VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(physicalDevice, 0, surface, &supported));
  EXPECT_TRUE(supported);
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps));
  // VK_EXT_headless_surface: no size of its own.
  EXPECT_EQ(caps.currentExtent.width, 0xFFFFFFFFu);
  EXPECT_EQ(caps.currentExtent.height, 0xFFFFFFFFu);
  EXPECT_GE(caps.minImageCount, 1u);
  EXPECT_GE(caps.maxImageCount, caps.minImageCount);
  EXPECT_TRUE(caps.supportedUsageFlags & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);  // required by the spec
  EXPECT_TRUE(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR);
  uint32_t n = 0;
  VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physicalDevice, surface, &n, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(n);
  VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(physicalDevice, surface, &n, formats.data()));
  bool bgra = false;
  for (const auto& f : formats) bgra |= f.format == VK_FORMAT_B8G8R8A8_UNORM;
  EXPECT_TRUE(bgra);
  VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(physicalDevice, surface, &n, nullptr));
  std::vector<VkPresentModeKHR> modes(n);
  VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(physicalDevice, surface, &n, modes.data()));
  for (VkPresentModeKHR want : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                                VK_PRESENT_MODE_IMMEDIATE_KHR})
    EXPECT_NE(std::find(modes.begin(), modes.end(), want), modes.end()) << want;
}

// FIFO shows every frame in order; TESSERA_CAPTURE_FRAMES picks which are written.
TEST_F(Wsi, FifoCapturesTheSelectedFrames) {
  captureFrames("1, 3-4,every:10");
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 3);
  ASSERT_NE(sc, VK_NULL_HANDLE);
  EXPECT_GE(imagesOf(sc).size(), 3u);
  for (uint64_t n = 1; n <= 12; ++n) frame(sc, n);
  destroySwapchain(sc);  // finishes what the presentation engine still has
  for (uint64_t n : {1, 3, 4, 10}) expectCaptured(n);
  for (uint64_t n : {2, 5, 9, 11, 12}) EXPECT_FALSE(std::filesystem::exists(capturePath(n))) << n;
}

// Every in-order present mode captures every frame; MAILBOX may drop frames it replaced but
// shows the last one, and every acquire still succeeds.
TEST_F(Wsi, EveryPresentModePresents) {
  captureFrames(nullptr);  // all frames
  uint64_t n = 0;
  for (VkPresentModeKHR mode : {VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR}) {
    VkSwapchainKHR sc = createSwapchain(mode, 2);
    ASSERT_NE(sc, VK_NULL_HANDLE);
    const uint64_t first = n + 1;
    for (int i = 0; i < 4; ++i) frame(sc, ++n);
    destroySwapchain(sc);
    for (uint64_t k = first; k <= n; ++k) expectCaptured(k);
  }
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_MAILBOX_KHR, 3);
  ASSERT_NE(sc, VK_NULL_HANDLE);
  for (int i = 0; i < 6; ++i) frame(sc, ++n);
  destroySwapchain(sc);
  expectCaptured(n);
}

TEST_F(Wsi, AcquireHonoursTimeoutsAndSignalsItsFence) {
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  ASSERT_NE(sc, VK_NULL_HANDLE);
  const uint32_t count = uint32_t(imagesOf(sc).size());
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(device, &fci, nullptr, &fence));
  std::vector<uint32_t> held;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t index;
    ASSERT_EQ(vkAcquireNextImageKHR(device, sc, 0, VK_NULL_HANDLE, fence, &index), VK_SUCCESS);
    EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, 1'000'000'000ull), VK_SUCCESS);
    VK_CHECK(vkResetFences(device, 1, &fence));
    held.push_back(index);
  }
  uint32_t index;
  EXPECT_EQ(vkAcquireNextImageKHR(device, sc, 0, VK_NULL_HANDLE, fence, &index), VK_NOT_READY);
  EXPECT_EQ(vkAcquireNextImageKHR(device, sc, 2'000'000, VK_NULL_HANDLE, fence, &index), VK_TIMEOUT);
  EXPECT_EQ(vkGetFenceStatus(device, fence), VK_NOT_READY);  // no image, no signal
  // Presenting one gives it back once the presentation engine is done with it.
  VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  pi.swapchainCount = 1;
  pi.pSwapchains = &sc;
  pi.pImageIndices = &held[0];
  // (Images go to the presentation engine in any layout here: nothing was rendered.)
  VkCommandBuffer cb = beginCommands();
  for (VkImage image : imagesOf(sc)) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
  }
  endSubmitWait(cb);
  EXPECT_EQ(vkQueuePresentKHR(queue, &pi), VK_SUCCESS);
  EXPECT_EQ(vkAcquireNextImageKHR(device, sc, 5'000'000'000ull, VK_NULL_HANDLE, fence, &index), VK_SUCCESS);
  EXPECT_EQ(index, held[0]);
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, 1'000'000'000ull), VK_SUCCESS);
  vkDestroyFence(device, fence, nullptr);
}

// oldSwapchain: the old one is retired but still presents what was acquired from it; a second
// swapchain without oldSwapchain is refused.
TEST_F(Wsi, ANewSwapchainRetiresTheOldOne) {
  captureFrames(nullptr);
  VkSwapchainKHR first = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  ASSERT_NE(first, VK_NULL_HANDLE);
  uint32_t index;
  ASSERT_EQ(vkAcquireNextImageKHR(device, first, UINT64_MAX, acquired, VK_NULL_HANDLE, &index), VK_SUCCESS);
  VkSwapchainKHR second = createSwapchain(VK_PRESENT_MODE_MAILBOX_KHR, 3, first);
  ASSERT_NE(second, VK_NULL_HANDLE);
  EXPECT_EQ(renderAndPresent(first, index, 1), VK_SUCCESS);
  destroySwapchain(first);
  expectCaptured(1);
  frame(second, 2);
  destroySwapchain(second);
  expectCaptured(2);  // frame numbers run on across swapchains of the device

  VkSwapchainKHR third = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  ASSERT_NE(third, VK_NULL_HANDLE);
  VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  ci.surface = surface;
  ci.minImageCount = 2;
  ci.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
  ci.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  ci.imageExtent = {kWidth, kHeight};
  ci.imageArrayLayers = 1;
  ci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  ci.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  ci.presentMode = VK_PRESENT_MODE_FIFO_KHR;
  VkSwapchainKHR fourth = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSwapchainKHR(device, &ci, nullptr, &fourth), VK_ERROR_NATIVE_WINDOW_IN_USE_KHR);
  takeMessages("NATIVE_WINDOW_IN_USE");  // the layer may mention the error it saw returned
}

// The captured pixels are the image's, row by row and in RGB order whatever the format's.
TEST_F(Wsi, CapturedPixelsKeepTheirPlaceAndChannelOrder) {
  captureFrames("1-2");
  for (VkFormat format : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
    VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2, VK_NULL_HANDLE, format);
    ASSERT_NE(sc, VK_NULL_HANDLE);
    uint32_t index;
    ASSERT_EQ(vkAcquireNextImageKHR(device, sc, UINT64_MAX, acquired, VK_NULL_HANDLE, &index), VK_SUCCESS);
    // Pixel (x, y) gets R = 6x, G = 10y, B = 200 through a buffer copy in the image's own order.
    BufferAndMemory staging = createBuffer(kWidth * kHeight * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM;
    for (uint32_t y = 0; y < kHeight; ++y)
      for (uint32_t x = 0; x < kWidth; ++x) {
        uint8_t* p = staging.mapped + 4 * (y * kWidth + x);
        p[bgra ? 2 : 0] = uint8_t(6 * x);
        p[1] = uint8_t(10 * y);
        p[bgra ? 0 : 2] = 200;
        p[3] = 255;
      }
    const VkImage image = imagesOf(sc)[index];
    VkCommandBuffer cb = beginCommands();
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                         &b);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {kWidth, kHeight, 1};
    vkCmdCopyBufferToImage(cb, staging.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = 0;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    ASSERT_EQ(submitAndPresent(cb, sc, index, VK_PIPELINE_STAGE_TRANSFER_BIT), VK_SUCCESS);
    vkQueueWaitIdle(queue);
    destroySwapchain(sc);
    vkFreeCommandBuffers(device, pool, 1, &cb);
    destroy(staging);
  }
  for (uint64_t n : {1, 2}) {
    Png png = readPng(capturePath(n));
    ASSERT_EQ(png.width, kWidth);
    ASSERT_EQ(png.height, kHeight);
    for (uint32_t y = 0; y < kHeight; ++y) {
      for (uint32_t x = 0; x < kWidth; ++x) {
        const uint8_t want[3] = {uint8_t(6 * x), uint8_t(10 * y), 200};
        ASSERT_EQ(std::memcmp(png.at(x, y), want, 3), 0) << "frame " << n << " pixel (" << x << ", " << y << ")";
      }
    }
  }
}

// Acquiring from a retired swapchain is invalid usage (the validation layer stops it), so this
// runs without layers: the driver answers VK_ERROR_OUT_OF_DATE_KHR rather than an image.
class WsiIncrementalPresent : public Wsi {
 protected:
  WsiIncrementalPresent() { moreDeviceExtensions = {VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME}; }
};

// VK_KHR_incremental_present: VkPresentRegionsKHR names the changed rectangles as "an
// optimization hint that a presentation engine may use"; "the application still must ensure that
// all pixels of a presented image contain the desired values, in case the presentation engine
// ignores this hint". Tessera ignores it: every pixel of each frame is presented, whatever the
// rectangles say (one small one here), and the validation layer accepts the chain.
TEST_F(WsiIncrementalPresent, RegionsAreAHintAndWholeFramesArePresented) {
  captureFrames("1-3");
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 3);
  ASSERT_NE(sc, VK_NULL_HANDLE);
  const VkRectLayerKHR rectangle{{1, 1}, {4, 3}, 0};
  const VkPresentRegionKHR region{1, &rectangle};
  const VkPresentRegionsKHR regions{VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR, nullptr, 1, &region};
  presentNext = &regions;
  for (uint64_t n = 1; n <= 3; ++n) frame(sc, n);
  destroySwapchain(sc);
  for (uint64_t n = 1; n <= 3; ++n) expectCaptured(n);  // the frame's colour at pixels all over it
}

class WsiMutableFormat : public Wsi {
 protected:
  WsiMutableFormat() { moreDeviceExtensions = {VK_KHR_SWAPCHAIN_MUTABLE_FORMAT_EXTENSION_NAME}; }
};

// VK_KHR_swapchain_mutable_format: with VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR and a
// VkImageFormatListCreateInfo, views of the images may use the listed formats. Frames are cleared
// through B8G8R8A8_SRGB views of a B8G8R8A8_UNORM swapchain: the clear colour is stored sRGB
// encoded ("sRGB transfer functions": c <= 0.0031308 ? 12.92 c : 1.055 c^(1/2.4) - 0.055, to the
// nearest byte, within one step), and the presentation engine shows those bytes as they are.
TEST_F(WsiMutableFormat, SrgbViewsOfAUnormSwapchainStoreEncodedColours) {
  const VkFormat formats[2] = {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB};
  const VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO, nullptr, 2, formats};
  swapchainFlags = VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR;
  swapchainNext = &list;
  renderFormat = VK_FORMAT_B8G8R8A8_SRGB;
  captureFrames("1-3");
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 3);
  ASSERT_NE(sc, VK_NULL_HANDLE);
  for (uint64_t n = 1; n <= 3; ++n) frame(sc, n);
  destroySwapchain(sc);
  for (uint64_t n = 1; n <= 3; ++n) {
    Png png = readPng(capturePath(n));
    ASSERT_EQ(png.width, kWidth) << "frame " << n << " was not captured";
    uint8_t rgb[3];
    frameColor(n, rgb);
    for (int c = 0; c < 3; ++c) {
      const double linear = rgb[c] / 255.0;
      const double encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1 / 2.4) - 0.055;
      EXPECT_NEAR(png.at(kWidth / 2, kHeight / 2)[c], encoded * 255.0, 1.0) << "frame " << n << " component " << c;
    }
  }
}

class WsiProtectedCapabilities : public Wsi {
 protected:
  WsiProtectedCapabilities() {
    moreInstanceExtensions = {VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME,
                              VK_KHR_SURFACE_PROTECTED_CAPABILITIES_EXTENSION_NAME};
  }
};

// VK_KHR_surface_protected_capabilities: supportsProtected says whether a swapchain of the
// surface may be created with VK_SWAPCHAIN_CREATE_PROTECTED_BIT_KHR. Tessera has no protected
// memory (protectedMemory is VK_FALSE), so no surface supports it. (The loader itself sets
// supportsProtected to VK_FALSE before it calls a driver, so through it this test proves that the
// extension is offered and the chained query succeeds; icd/wsi_surface.cpp also fills it in for
// callers without a loader.)
TEST_F(WsiProtectedCapabilities, NoSurfaceSupportsProtectedSwapchains) {
  VkPhysicalDeviceProtectedMemoryFeatures protectedMemory{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &protectedMemory};
  vkGetPhysicalDeviceFeatures2(physicalDevice, &features);
  ASSERT_FALSE(protectedMemory.protectedMemory);
  auto query = reinterpret_cast<PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceSurfaceCapabilities2KHR"));
  ASSERT_NE(query, nullptr);
  VkSurfaceProtectedCapabilitiesKHR protectedCaps{VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR};
  protectedCaps.supportsProtected = VK_TRUE;  // must be overwritten
  VkSurfaceCapabilities2KHR caps{VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR, &protectedCaps};
  VkPhysicalDeviceSurfaceInfo2KHR info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR, nullptr, surface};
  VK_CHECK(query(physicalDevice, &info, &caps));
  EXPECT_FALSE(protectedCaps.supportsProtected);
  EXPECT_GE(caps.surfaceCapabilities.minImageCount, 1u);
}

TEST(WsiWithoutLayers, AcquireFromARetiredSwapchainIsOutOfDate) {
  BareDevice bare({VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME},
                  {VK_KHR_SWAPCHAIN_EXTENSION_NAME});
  ASSERT_NE(bare.device, VK_NULL_HANDLE);
  auto createSurface = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
      vkGetInstanceProcAddr(bare.instance, "vkCreateHeadlessSurfaceEXT"));
  ASSERT_NE(createSurface, nullptr);
  VkHeadlessSurfaceCreateInfoEXT sci{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
  VkSurfaceKHR surface;
  ASSERT_EQ(createSurface(bare.instance, &sci, nullptr, &surface), VK_SUCCESS);
  VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  ci.surface = surface;
  ci.minImageCount = 2;
  ci.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
  ci.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  ci.imageExtent = {8, 8};
  ci.imageArrayLayers = 1;
  ci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  ci.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  ci.presentMode = VK_PRESENT_MODE_FIFO_KHR;
  VkSwapchainKHR first, second;
  ASSERT_EQ(vkCreateSwapchainKHR(bare.device, &ci, nullptr, &first), VK_SUCCESS);
  ci.oldSwapchain = first;
  ASSERT_EQ(vkCreateSwapchainKHR(bare.device, &ci, nullptr, &second), VK_SUCCESS);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  ASSERT_EQ(vkCreateFence(bare.device, &fci, nullptr, &fence), VK_SUCCESS);
  uint32_t index;
  EXPECT_EQ(vkAcquireNextImageKHR(bare.device, first, 0, VK_NULL_HANDLE, fence, &index), VK_ERROR_OUT_OF_DATE_KHR);
  EXPECT_EQ(vkAcquireNextImageKHR(bare.device, second, 0, VK_NULL_HANDLE, fence, &index), VK_SUCCESS);
  vkDestroyFence(bare.device, fence, nullptr);
  vkDestroySwapchainKHR(bare.device, first, nullptr);
  vkDestroySwapchainKHR(bare.device, second, nullptr);
  vkDestroySurfaceKHR(bare.instance, surface, nullptr);
}

}  // namespace
}  // namespace tessera_test
