// Presentation to an X11 window (VK_KHR_xcb_surface) on a private Xvfb server, through the
// loader with validation: frames rendered into acquired images must appear in the window
// (read back with GetImage) and still be captured; a killed server loses the surface, not the
// program. Skipped, saying so, without Xvfb.
#define VK_USE_PLATFORM_XCB_KHR
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include <vulkan/vulkan.h>

#include "wsi_fixture.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

// `options`: the Xvfb server's extra options; the window is width x height.
class WsiXcb : public WsiTest {
 protected:
  WsiXcb(std::vector<std::string> options = {}, uint16_t width = 56, uint16_t height = 36)
      : WsiTest(VK_KHR_XCB_SURFACE_EXTENSION_NAME), options_(std::move(options)), kWindowWidth(width),
        kWindowHeight(height) {}

  void SetUp() override {
    const std::string binary = findXvfb();
    if (binary.empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb): X11 presentation is not tested";
    server_ = std::make_unique<Xvfb>(binary, options_);
    ASSERT_FALSE(server_->display().empty()) << "Xvfb did not start";
    connection_ = xcb_connect(server_->display().c_str(), nullptr);
    ASSERT_EQ(xcb_connection_has_error(connection_), 0);
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(connection_)).data;
    window_ = xcb_generate_id(connection_);
    const uint32_t background = screen->black_pixel;
    xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0, kWindowWidth, kWindowHeight, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL, &background);
    xcb_map_window(connection_, window_);
    std::free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));  // mapped
    WsiTest::SetUp();
  }
  void TearDown() override {
    WsiTest::TearDown();
    if (connection_) xcb_disconnect(connection_);
    server_.reset();
  }
  void createSurface() override {
    VkXcbSurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
    sci.connection = connection_;
    sci.window = window_;
    auto create = reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR"));
    ASSERT_NE(create, nullptr);
    VK_CHECK(create(instance, &sci, nullptr, &surface));
  }

  // The window's pixels as R, G, B (the server's depth-24 pixels are 0x00RRGGBB words).
  Png windowContents() {
    Png out;
    xcb_generic_error_t* error = nullptr;
    xcb_get_image_reply_t* r = xcb_get_image_reply(
        connection_,
        xcb_get_image(connection_, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, 0, 0, kWindowWidth, kWindowHeight, ~0u), &error);
    if (!r) {
      ADD_FAILURE() << "GetImage failed: X error " << (error ? int(error->error_code) : -1) << ", connection error "
                    << xcb_connection_has_error(connection_);
      std::free(error);
      return out;
    }
    const uint8_t* data = xcb_get_image_data(r);
    out.width = kWindowWidth;
    out.height = kWindowHeight;
    for (uint32_t i = 0; i < uint32_t(kWindowWidth) * kWindowHeight; ++i) {
      out.rgb.push_back(data[4 * i + 2]);
      out.rgb.push_back(data[4 * i + 1]);
      out.rgb.push_back(data[4 * i + 0]);
    }
    std::free(r);
    return out;
  }

  // Frames in FIFO and MAILBOX swapchains sized like the window: after each swapchain the
  // window shows its last frame; frame 3 is also captured.
  void presentAndCompare(VkCompositeAlphaFlagBitsKHR compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) {
    auto support = reinterpret_cast<PFN_vkGetPhysicalDeviceXcbPresentationSupportKHR>(
        vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceXcbPresentationSupportKHR"));
    ASSERT_NE(support, nullptr);
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(connection_)).data;
    EXPECT_TRUE(support(physicalDevice, 0, connection_, screen->root_visual));
    VkSurfaceCapabilitiesKHR caps;
    VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps));
    EXPECT_EQ(caps.currentExtent.width, kWindowWidth);  // a window's swapchain matches the window
    EXPECT_EQ(caps.currentExtent.height, kWindowHeight);

    captureFrames("3");
    for (VkPresentModeKHR mode : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR}) {
      VkSwapchainKHR sc = createSwapchain(mode, 2, VK_NULL_HANDLE, renderFormat, caps.currentExtent, compositeAlpha);
      ASSERT_NE(sc, VK_NULL_HANDLE);
      for (int i = 0; i < 3; ++i) frame(sc, ++frames_);
      destroySwapchain(sc);  // the presentation engine has shown everything
      const Png shown = windowContents();
      ASSERT_EQ(shown.width, kWindowWidth);
      ASSERT_EQ(shown.height, kWindowHeight);
      expectWindowShowsFrame(shown, frames_, 7, 5, mode);
    }
    EXPECT_EQ(readPng(capturePath(3)).width, kWindowWidth);
  }

  const std::vector<std::string> options_;
  const uint16_t kWindowWidth, kWindowHeight;
  std::unique_ptr<Xvfb> server_;
  uint64_t frames_ = 0;  // frames presented on the device so far
  xcb_connection_t* connection_ = nullptr;
  xcb_window_t window_ = 0;
};

// Without MIT-SHM (a server on another machine has none; asking for it there would close the
// application's connection) and with requests of at most 4 MiB (Xvfb's smallest
// -maxbigreqsize), a 1280x900 window (4.6 MB) takes PutImage in two bands.
class WsiXcbPutImage : public WsiXcb {
 protected:
  WsiXcbPutImage() : WsiXcb({"-extension", "MIT-SHM", "-maxbigreqsize", "1"}, 1280, 900) {}
};

TEST_F(WsiXcb, TheWindowShowsThePresentedFrames) {
  // MIT-SHM is there, so the copies go through shared memory.
  EXPECT_TRUE(xcb_get_extension_data(connection_, &xcb_shm_id)->present);
  presentAndCompare();
}

// An R8G8B8A8 swapchain on the server's B8G8R8A8-ordered visual: the presentation swaps red and
// blue as it copies (a program that picks the surface's RGBA format sees its own colours).
TEST_F(WsiXcb, AnRgbaSwapchainShowsItsColours) {
  renderFormat = VK_FORMAT_R8G8B8A8_UNORM;
  presentAndCompare();
}

// VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR ("VkCompositeAlphaFlagBitsKHR": the window system's own
// compositing decides) is offered on X11 besides OPAQUE, and such a swapchain's frames show in
// the window as an opaque one's do (a window of the server's 24-bit default visual).
TEST_F(WsiXcb, AnInheritCompositeAlphaSwapchainShowsItsFrames) {
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps));
  EXPECT_EQ(caps.supportedCompositeAlpha, VkCompositeAlphaFlagsKHR(VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR |
                                                                   VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR));
  presentAndCompare(VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR);
}

// A window resized under its swapchain: once the presentation engine has seen it, acquire
// says VK_SUBOPTIMAL_KHR (the images still present, clipped) so that the program recreates it.
TEST_F(WsiXcb, AResizedWindowMakesTheSwapchainSuboptimal) {
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2, VK_NULL_HANDLE, VK_FORMAT_B8G8R8A8_UNORM,
                                      {kWindowWidth, kWindowHeight});
  ASSERT_NE(sc, VK_NULL_HANDLE);
  frame(sc, 1);
  const uint32_t size[2] = {kWindowWidth / 2u, kWindowHeight / 2u};
  xcb_configure_window(connection_, window_, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
  std::free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));  // done
  // From the resize on, acquire and present may already say VK_SUBOPTIMAL_KHR ("the swapchain
  // no longer matches the surface properties exactly"): when depends on when the presentation
  // engine sees the new size, so frame 2 accepts either.
  uint32_t presented = UINT32_MAX;
  const VkResult acquired2 = vkAcquireNextImageKHR(device, sc, UINT64_MAX, acquired, VK_NULL_HANDLE, &presented);
  ASSERT_TRUE(acquired2 == VK_SUCCESS || acquired2 == VK_SUBOPTIMAL_KHR) << acquired2;
  const VkResult presented2 = renderAndPresent(sc, presented, 2);
  EXPECT_TRUE(presented2 == VK_SUCCESS || presented2 == VK_SUBOPTIMAL_KHR) << presented2;
  // Both images: the second to come back is frame 2's, given back after the engine saw the size.
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(device, &fci, nullptr, &fence));
  VkResult last = VK_ERROR_UNKNOWN;
  uint32_t index = UINT32_MAX;
  for (int i = 0; i < 2; ++i) {
    last = vkAcquireNextImageKHR(device, sc, 5'000'000'000ull, VK_NULL_HANDLE, fence, &index);
    ASSERT_TRUE(last == VK_SUCCESS || last == VK_SUBOPTIMAL_KHR) << last;
    VK_CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkResetFences(device, 1, &fence));
  }
  EXPECT_EQ(index, presented);
  EXPECT_EQ(last, VK_SUBOPTIMAL_KHR);
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps));
  EXPECT_EQ(caps.currentExtent.width, size[0]);
  vkDestroyFence(device, fence, nullptr);
}

// The X server killed under a FIFO swapchain: acquire or present returns
// VK_ERROR_SURFACE_LOST_KHR within a few frames, and the surface queries say so; no crash,
// hang or SIGPIPE exit on the broken connection.
TEST_F(WsiXcb, AKilledServerLosesTheSurfaceNotTheProgram) {
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2, VK_NULL_HANDLE, VK_FORMAT_B8G8R8A8_UNORM,
                                      {kWindowWidth, kWindowHeight});
  ASSERT_NE(sc, VK_NULL_HANDLE);
  frame(sc, 1);
  server_->kill();
  VkResult failed = VK_SUCCESS;
  for (uint64_t n = 2; n < 10 && failed == VK_SUCCESS; ++n) {
    uint32_t index = UINT32_MAX;
    const VkResult acquire = vkAcquireNextImageKHR(device, sc, 5'000'000'000ull, acquired, VK_NULL_HANDLE, &index);
    if (acquire != VK_SUCCESS) {
      failed = acquire;
      break;
    }
    failed = renderAndPresent(sc, index, n);
  }
  EXPECT_EQ(failed, VK_ERROR_SURFACE_LOST_KHR);
  VkSurfaceCapabilitiesKHR caps;
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps), VK_ERROR_SURFACE_LOST_KHR);
  EXPECT_NE(xcb_connection_has_error(connection_), 0);
}

TEST_F(WsiXcbPutImage, TheWindowShowsThePresentedFrames) {
  EXPECT_FALSE(xcb_get_extension_data(connection_, &xcb_shm_id)->present);
  EXPECT_LT(xcb_get_maximum_request_length(connection_) * 4, uint32_t(kWindowWidth) * kWindowHeight * 4);
  presentAndCompare();
}

}  // namespace
}  // namespace tessera_test
