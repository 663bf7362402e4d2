// The presentation tests' fixture (wsi_headless_test.cpp, wsi_xcb_test.cpp, wsi_xlib_test.cpp,
// wsi_wayland_test.cpp): an instance and device with the WSI extensions, a surface,
// swapchains, frames rendered into acquired images and presented, captured PNG files read back.
#pragma once

#include <png.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "vulkan_fixture.h"

namespace tessera_test {

inline constexpr uint32_t kWidth = 40, kHeight = 24;

// An 8-bit RGB(A) PNG read back: width, height and RGB per pixel (empty when unreadable).
struct Png {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;
  const uint8_t* at(uint32_t x, uint32_t y) const { return &rgb[3 * (size_t(y) * width + x)]; }
};

inline Png readPng(const std::string& path) {
  Png out;
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return out;
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) return out;
  out.width = image.width;
  out.height = image.height;
  out.rgb = std::move(pixels);
  return out;
}

// The colour frame n is cleared to (8-bit values; UNORM so the bytes are exact).
inline void frameColor(uint64_t n, uint8_t rgb[3]) {
  rgb[0] = uint8_t(20 * n);
  rgb[1] = uint8_t(255 - 10 * n);
  rgb[2] = uint8_t(7 * n + 3);
}

// Asserts that every stepX-th pixel of every stepY-th row of a window's readback shows frame
// n's colour (what a window must show once its swapchain presented frame n and was destroyed).
inline void expectWindowShowsFrame(const Png& shown, uint64_t n, uint32_t stepX, uint32_t stepY, VkPresentModeKHR mode) {
  uint8_t rgb[3];
  frameColor(n, rgb);
  for (uint32_t y = 0; y < shown.height; y += stepY)
    for (uint32_t x = 0; x < shown.width; x += stepX)
      ASSERT_EQ(std::memcmp(shown.at(x, y), rgb, 3), 0)
          << "present mode " << mode << ", window pixel (" << x << ", " << y << "): " << int(shown.at(x, y)[0]) << ","
          << int(shown.at(x, y)[1]) << "," << int(shown.at(x, y)[2]);
}

// An instance with VK_KHR_surface and `surfaceExtension`, a device with VK_KHR_swapchain, the
// surface createSurface() makes, a capture directory of its own, and frames to render.
class WsiTest : public VulkanTest {
 protected:
  explicit WsiTest(const char* surfaceExtension) : surfaceExtension_(surfaceExtension) {}
  virtual void createSurface() = 0;  // sets `surface` (the instance exists)

  void SetUp() override {
    extraInstanceExtensions = {VK_KHR_SURFACE_EXTENSION_NAME, surfaceExtension_};
    extraInstanceExtensions.insert(extraInstanceExtensions.end(), moreInstanceExtensions.begin(), moreInstanceExtensions.end());
    extraDeviceExtensions = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    extraDeviceExtensions.insert(extraDeviceExtensions.end(), moreDeviceExtensions.begin(), moreDeviceExtensions.end());
    char dir[] = "/tmp/tessera-capture-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    captureDir = dir;
    VulkanTest::SetUp();
    if (HasFatalFailure()) return;
    createSurface();
    ASSERT_NE(surface, VK_NULL_HANDLE);
    VkSemaphoreCreateInfo semci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    for (auto* s : {&acquired, &rendered}) VK_CHECK(vkCreateSemaphore(device, &semci, nullptr, s));
  }
  void TearDown() override {
    if (device) {
      vkDeviceWaitIdle(device);
      for (VkSwapchainKHR s : swapchains) vkDestroySwapchainKHR(device, s, nullptr);
      vkDestroySemaphore(device, acquired, nullptr);
      vkDestroySemaphore(device, rendered, nullptr);
    }
    if (surface) vkDestroySurfaceKHR(instance, surface, nullptr);
    VulkanTest::TearDown();
    unsetenv("TESSERA_CAPTURE_DIR");
    unsetenv("TESSERA_CAPTURE_FRAMES");
    if (!captureDir.empty()) std::filesystem::remove_all(captureDir);
  }

  // Extensions a test adds to the WSI ones (set in its constructor), and what it chains to
  // every VkPresentInfoKHR.
  std::vector<const char*> moreInstanceExtensions, moreDeviceExtensions;
  const void* presentNext = nullptr;
  // What createSwapchain adds to every VkSwapchainCreateInfoKHR, and the format of the views
  // renderAndPresent clears (the swapchain's own unless its images are mutable).
  VkSwapchainCreateFlagsKHR swapchainFlags = 0;
  const void* swapchainNext = nullptr;
  VkFormat renderFormat = VK_FORMAT_B8G8R8A8_UNORM;

  // Captures go to captureDir; read when the swapchain is created.
  void captureFrames(const char* frames) {
    setenv("TESSERA_CAPTURE_DIR", captureDir.c_str(), 1);
    if (frames) setenv("TESSERA_CAPTURE_FRAMES", frames, 1);
    else unsetenv("TESSERA_CAPTURE_FRAMES");
  }
  std::string capturePath(uint64_t frame) const {
    char name[32];
    std::snprintf(name, sizeof(name), "/frame-%06llu.png", static_cast<unsigned long long>(frame));
    return captureDir + name;
  }

  VkSwapchainKHR createSwapchain(VkPresentModeKHR mode, uint32_t images, VkSwapchainKHR old = VK_NULL_HANDLE,
                                 VkFormat format = VK_FORMAT_B8G8R8A8_UNORM, VkExtent2D extent = {kWidth, kHeight},
                                 VkCompositeAlphaFlagBitsKHR compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) {
    VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    ci.surface = surface;
    ci.minImageCount = images;
    ci.imageFormat = format;
    ci.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    ci.imageExtent = extent;
    ci.imageArrayLayers = 1;
    ci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ci.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    ci.compositeAlpha = compositeAlpha;
    ci.presentMode = mode;
    ci.clipped = VK_TRUE;
    ci.oldSwapchain = old;
    ci.flags = swapchainFlags;
    ci.pNext = swapchainNext;
    VkSwapchainKHR sc = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSwapchainKHR(device, &ci, nullptr, &sc), VK_SUCCESS);
    if (sc) {
      swapchains.push_back(sc);
      extents[sc] = extent;
      imagesOf(sc);  // as programs do before acquiring (the validation layer tracks images from here)
    }
    return sc;
  }
  void destroySwapchain(VkSwapchainKHR sc) {
    vkDestroySwapchainKHR(device, sc, nullptr);
    std::erase(swapchains, sc);
  }
  std::vector<VkImage> imagesOf(VkSwapchainKHR sc) {
    uint32_t n = 0;
    vkGetSwapchainImagesKHR(device, sc, &n, nullptr);
    std::vector<VkImage> images(n);
    vkGetSwapchainImagesKHR(device, sc, &n, images.data());
    return images;
  }

  // Renders frame n into image `index` of `sc` (a load-op clear of dynamic rendering, so the
  // image is a colour attachment) after `acquired`, and presents it after `rendered`.
  VkResult renderAndPresent(VkSwapchainKHR sc, uint32_t index, uint64_t n) {
    const VkImage image = imagesOf(sc)[index];
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = renderFormat;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    EXPECT_EQ(vkCreateImageView(device, &vci, nullptr, &view), VK_SUCCESS);
    VkCommandBuffer cb = beginCommands();
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = vci.subresourceRange;
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         0, 0, nullptr, 0, nullptr, 1, &b);
    uint8_t rgb[3];
    frameColor(n, rgb);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{rgb[0] / 255.0f, rgb[1] / 255.0f, rgb[2] / 255.0f, 1.0f}};
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, extents[sc]};
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &color;
    vkCmdBeginRendering(cb, &ri);
    vkCmdEndRendering(cb);
    b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    b.dstAccessMask = 0;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0,
                         nullptr, 0, nullptr, 1, &b);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    const VkResult r = submitAndPresent(cb, sc, index, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
    // The command buffer and view must outlive the rendering: wait before freeing them.
    vkQueueWaitIdle(queue);
    vkFreeCommandBuffers(device, pool, 1, &cb);
    vkDestroyImageView(device, view, nullptr);
    return r;
  }

  // Submits `cb` (waiting for `acquired` at `waitStage`, signalling `rendered`) and presents
  // image `index` of `sc` after it; the present's result (its per-swapchain result agrees).
  VkResult submitAndPresent(VkCommandBuffer cb, VkSwapchainKHR sc, uint32_t index, VkPipelineStageFlags waitStage) {
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.waitSemaphoreCount = 1;
    si.pWaitSemaphores = &acquired;
    si.pWaitDstStageMask = &waitStage;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &rendered;
    EXPECT_EQ(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, presentNext};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &rendered;
    pi.swapchainCount = 1;
    pi.pSwapchains = &sc;
    pi.pImageIndices = &index;
    VkResult result = VK_ERROR_UNKNOWN;
    pi.pResults = &result;
    const VkResult r = vkQueuePresentKHR(queue, &pi);
    EXPECT_EQ(r, result);
    return r;
  }

  // Acquire (semaphore `acquired`), render frame n, present; returns the image index.
  uint32_t frame(VkSwapchainKHR sc, uint64_t n) {
    uint32_t index = UINT32_MAX;
    EXPECT_EQ(vkAcquireNextImageKHR(device, sc, UINT64_MAX, acquired, VK_NULL_HANDLE, &index), VK_SUCCESS);
    if (index != UINT32_MAX) {
      EXPECT_EQ(renderAndPresent(sc, index, n), VK_SUCCESS);
    }
    return index;
  }

  void expectCaptured(uint64_t n) {
    Png png = readPng(capturePath(n));
    ASSERT_EQ(png.width, kWidth) << "frame " << n << " was not captured";
    ASSERT_EQ(png.height, kHeight);
    uint8_t rgb[3];
    frameColor(n, rgb);
    for (uint32_t y = 0; y < kHeight; y += 7) {
      for (uint32_t x = 0; x < kWidth; x += 5) {
        ASSERT_EQ(std::memcmp(png.at(x, y), rgb, 3), 0)
            << "frame " << n << " pixel (" << x << ", " << y << "): " << int(png.at(x, y)[0]) << ","
            << int(png.at(x, y)[1]) << "," << int(png.at(x, y)[2]);
      }
    }
  }

  std::string captureDir;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VkSemaphore acquired = VK_NULL_HANDLE, rendered = VK_NULL_HANDLE;
  std::vector<VkSwapchainKHR> swapchains;
  std::map<VkSwapchainKHR, VkExtent2D> extents;

 private:
  const char* surfaceExtension_;
};

}  // namespace tessera_test
