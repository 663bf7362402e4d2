// Presentation to an X11 window made with Xlib (VK_KHR_xlib_surface) on a private Xvfb server,
// through the loader with validation: Tessera presents through the Display's xcb connection, so
// frames rendered into acquired images must appear in the window (read back with xcb GetImage
// on that connection). Xlib owns the connection's event queue and its default error handler
// exits the program, so a window destroyed under a swapchain must cost the swapchain
// (VK_ERROR_SURFACE_LOST_KHR), never the program. Skipped, saying so, without Xvfb.
#include <gtest/gtest.h>
// Xlib's headers define None, Bool, Status, ...: after gtest's, which uses such names.
#define VK_USE_PLATFORM_XLIB_KHR
#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <xcb/xcb.h>

#include <vulkan/vulkan.h>

#include "wsi_fixture.h"
#include "xvfb.h"

namespace tessera_test {
namespace {

class WsiXlib : public WsiTest {
 protected:
  static constexpr uint32_t kWindowWidth = 48, kWindowHeight = 30;
  WsiXlib() : WsiTest(VK_KHR_XLIB_SURFACE_EXTENSION_NAME) {}

  void SetUp() override {
    const std::string binary = findXvfb();
    if (binary.empty()) GTEST_SKIP() << "Xvfb is not installed (Debian package xvfb): Xlib presentation is not tested";
    server_ = std::make_unique<Xvfb>(binary, std::vector<std::string>{});
    ASSERT_FALSE(server_->display().empty()) << "Xvfb did not start";
    display_ = XOpenDisplay(server_->display().c_str());
    ASSERT_NE(display_, nullptr);
    const int screen = DefaultScreen(display_);
    window_ = XCreateSimpleWindow(display_, RootWindow(display_, screen), 0, 0, kWindowWidth, kWindowHeight, 0,
                                  BlackPixel(display_, screen), BlackPixel(display_, screen));
    XMapWindow(display_, window_);
    XSync(display_, False);
    WsiTest::SetUp();
  }
  void TearDown() override {
    WsiTest::TearDown();
    if (display_) XCloseDisplay(display_);
    server_.reset();
  }
  void createSurface() override {
    VkXlibSurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR};
    sci.dpy = display_;
    sci.window = window_;
    auto create = reinterpret_cast<PFN_vkCreateXlibSurfaceKHR>(vkGetInstanceProcAddr(instance, "vkCreateXlibSurfaceKHR"));
    ASSERT_NE(create, nullptr);
    VK_CHECK(create(instance, &sci, nullptr, &surface));
  }

  // The window's pixels as R, G, B, read with xcb GetImage on the Display's connection (the
  // server's depth-24 pixels are 0x00RRGGBB words).
  Png windowContents() {
    xcb_connection_t* c = XGetXCBConnection(display_);
    Png out;
    xcb_get_image_reply_t* r = xcb_get_image_reply(
        c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, uint32_t(window_), 0, 0, kWindowWidth, kWindowHeight, ~0u),
        nullptr);
    if (!r) {
      ADD_FAILURE() << "GetImage failed";
      return out;
    }
    const uint8_t* data = xcb_get_image_data(r);
    out.width = kWindowWidth;
    out.height = kWindowHeight;
    for (uint32_t i = 0; i < kWindowWidth * kWindowHeight; ++i) {
      out.rgb.push_back(data[4 * i + 2]);
      out.rgb.push_back(data[4 * i + 1]);
      out.rgb.push_back(data[4 * i + 0]);
    }
    std::free(r);
    return out;
  }

  std::unique_ptr<Xvfb> server_;
  Display* display_ = nullptr;
  Window window_ = 0;
};

TEST_F(WsiXlib, TheWindowShowsThePresentedFrames) {
  auto support = reinterpret_cast<PFN_vkGetPhysicalDeviceXlibPresentationSupportKHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceXlibPresentationSupportKHR"));
  ASSERT_NE(support, nullptr);
  EXPECT_TRUE(support(physicalDevice, 0, display_, XVisualIDFromVisual(DefaultVisual(display_, DefaultScreen(display_)))));
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps));
  EXPECT_EQ(caps.currentExtent.width, kWindowWidth);  // a window's swapchain matches the window
  EXPECT_EQ(caps.currentExtent.height, kWindowHeight);

  captureFrames("2");
  uint64_t frames = 0;
  for (VkPresentModeKHR mode : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR}) {
    VkSwapchainKHR sc = createSwapchain(mode, 2, VK_NULL_HANDLE, VK_FORMAT_B8G8R8A8_UNORM, caps.currentExtent);
    ASSERT_NE(sc, VK_NULL_HANDLE);
    for (int i = 0; i < 3; ++i) frame(sc, ++frames);
    destroySwapchain(sc);  // the presentation engine has shown everything
    const Png shown = windowContents();
    ASSERT_EQ(shown.width, kWindowWidth);
    ASSERT_EQ(shown.height, kWindowHeight);
    expectWindowShowsFrame(shown, frames, 5, 3, mode);
  }
  EXPECT_EQ(readPng(capturePath(2)).width, kWindowWidth);
  XSync(display_, False);  // Xlib has seen no error (its default handler would have exited)
}

// The window destroyed under a FIFO swapchain: once the presentation engine finds it gone,
// acquire and present say VK_ERROR_SURFACE_LOST_KHR; the X errors of the copies in flight
// never reach Xlib's error handler, so the program (this test) goes on.
TEST_F(WsiXlib, ADestroyedWindowLosesTheSurfaceNotTheProgram) {
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2, VK_NULL_HANDLE, VK_FORMAT_B8G8R8A8_UNORM,
                                      {kWindowWidth, kWindowHeight});
  ASSERT_NE(sc, VK_NULL_HANDLE);
  frame(sc, 1);
  XDestroyWindow(display_, window_);
  XSync(display_, False);
  // A frame or two may still be taken before the engine notices; then acquire or present fails.
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
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(device, &fci, nullptr, &fence));
  uint32_t index;
  EXPECT_EQ(vkAcquireNextImageKHR(device, sc, 0, VK_NULL_HANDLE, fence, &index), VK_ERROR_SURFACE_LOST_KHR);
  vkDestroyFence(device, fence, nullptr);
  VkSurfaceCapabilitiesKHR caps;
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps), VK_ERROR_SURFACE_LOST_KHR);
  XSync(display_, False);  // Xlib reads the connection's queue: no error is waiting there
}

}  // namespace
}  // namespace tessera_test
