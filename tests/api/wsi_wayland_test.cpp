// Presentation to a Wayland surface (VK_KHR_wayland_surface) on a private headless Weston,
// through the loader with validation: frames go through wl_shm buffers (FIFO paced by frame
// callbacks) with no error, and the captured frames (TESSERA_CAPTURE_DIR) are the rendered
// ones. A compositor killed mid-run costs the swapchain (VK_ERROR_SURFACE_LOST_KHR), never the
// program: no crash, no hang, no SIGPIPE. Skipped, saying so, without weston.
#include <gtest/gtest.h>
#define VK_USE_PLATFORM_WAYLAND_KHR
#include <wayland-client.h>

#include <vulkan/vulkan.h>

#include "weston.h"
#include "wsi_fixture.h"
#include "xdg-shell-client-protocol.h"

namespace tessera_test {
namespace {

// A mapped toplevel window: a wl_surface with the xdg-shell role, configured by the
// compositor (which repaints, and so answers frame callbacks, only for mapped surfaces).
class WsiWayland : public WsiTest {
 protected:
  WsiWayland() : WsiTest(VK_KHR_WAYLAND_SURFACE_EXTENSION_NAME) {}

  void SetUp() override {
    const std::string binary = findWeston();
    if (binary.empty()) GTEST_SKIP() << "weston is not installed (Debian package weston): Wayland presentation is not tested";
    weston_ = std::make_unique<Weston>(binary);
    ASSERT_FALSE(weston_->socketPath().empty()) << "Weston did not start";
    // As a Wayland session sets them: Mesa's device-select layer (an implicit layer) connects
    // to the compositor when an instance enables VK_KHR_wayland_surface, and complains on
    // stderr without them.
    for (const char* name : {"XDG_RUNTIME_DIR", "WAYLAND_DISPLAY"})
      if (const char* value = std::getenv(name)) savedEnvironment_[name] = value;
    setenv("XDG_RUNTIME_DIR", weston_->runtimeDir().c_str(), 1);
    setenv("WAYLAND_DISPLAY", weston_->socketPath().c_str(), 1);
    display_ = wl_display_connect(weston_->socketPath().c_str());
    ASSERT_NE(display_, nullptr);
    registry_ = wl_display_get_registry(display_);
    static const wl_registry_listener kRegistry = {
        [](void* self, wl_registry* registry, uint32_t name, const char* interface, uint32_t) {
          auto* t = static_cast<WsiWayland*>(self);
          if (std::strcmp(interface, wl_compositor_interface.name) == 0)
            t->compositor_ = static_cast<wl_compositor*>(wl_registry_bind(registry, name, &wl_compositor_interface, 4));
          else if (std::strcmp(interface, xdg_wm_base_interface.name) == 0)
            t->wmBase_ = static_cast<xdg_wm_base*>(wl_registry_bind(registry, name, &xdg_wm_base_interface, 1));
        },
        [](void*, wl_registry*, uint32_t) {}};
    wl_registry_add_listener(registry_, &kRegistry, this);
    ASSERT_GE(wl_display_roundtrip(display_), 0);
    ASSERT_NE(compositor_, nullptr);
    ASSERT_NE(wmBase_, nullptr);
    static const xdg_wm_base_listener kPing = {[](void*, xdg_wm_base* base, uint32_t serial) { xdg_wm_base_pong(base, serial); }};
    xdg_wm_base_add_listener(wmBase_, &kPing, nullptr);
    wlSurface_ = wl_compositor_create_surface(compositor_);
    xdgSurface_ = xdg_wm_base_get_xdg_surface(wmBase_, wlSurface_);
    static const xdg_surface_listener kConfigure = {[](void* self, xdg_surface* s, uint32_t serial) {
      xdg_surface_ack_configure(s, serial);
      static_cast<WsiWayland*>(self)->configured_ = true;
    }};
    xdg_surface_add_listener(xdgSurface_, &kConfigure, this);
    toplevel_ = xdg_surface_get_toplevel(xdgSurface_);
    xdg_toplevel_set_title(toplevel_, "tessera wsi test");
    wl_surface_commit(wlSurface_);
    while (!configured_) ASSERT_GE(wl_display_roundtrip(display_), 0);
    WsiTest::SetUp();
  }
  void TearDown() override {
    WsiTest::TearDown();  // the Vulkan surface goes before the wl_surface
    if (toplevel_) xdg_toplevel_destroy(toplevel_);
    if (xdgSurface_) xdg_surface_destroy(xdgSurface_);
    if (wlSurface_) wl_surface_destroy(wlSurface_);
    if (wmBase_) xdg_wm_base_destroy(wmBase_);
    if (compositor_) wl_compositor_destroy(compositor_);
    if (registry_) wl_registry_destroy(registry_);
    if (display_) wl_display_disconnect(display_);
    weston_.reset();
    for (const char* name : {"XDG_RUNTIME_DIR", "WAYLAND_DISPLAY"}) {
      auto it = savedEnvironment_.find(name);
      if (it != savedEnvironment_.end()) setenv(name, it->second.c_str(), 1);
      else unsetenv(name);
    }
  }
  void createSurface() override {
    VkWaylandSurfaceCreateInfoKHR sci{VK_STRUCTURE_TYPE_WAYLAND_SURFACE_CREATE_INFO_KHR};
    sci.display = display_;
    sci.surface = wlSurface_;
    auto create =
        reinterpret_cast<PFN_vkCreateWaylandSurfaceKHR>(vkGetInstanceProcAddr(instance, "vkCreateWaylandSurfaceKHR"));
    ASSERT_NE(create, nullptr);
    VK_CHECK(create(instance, &sci, nullptr, &surface));
  }

  std::unique_ptr<Weston> weston_;
  std::map<std::string, std::string> savedEnvironment_;
  wl_display* display_ = nullptr;
  wl_registry* registry_ = nullptr;
  wl_compositor* compositor_ = nullptr;
  xdg_wm_base* wmBase_ = nullptr;
  wl_surface* wlSurface_ = nullptr;
  xdg_surface* xdgSurface_ = nullptr;
  xdg_toplevel* toplevel_ = nullptr;
  bool configured_ = false;
};

TEST_F(WsiWayland, EveryPresentModePresentsTheRenderedFrames) {
  auto support = reinterpret_cast<PFN_vkGetPhysicalDeviceWaylandPresentationSupportKHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceWaylandPresentationSupportKHR"));
  ASSERT_NE(support, nullptr);
  EXPECT_TRUE(support(physicalDevice, 0, display_));
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps));
  EXPECT_EQ(caps.currentExtent.width, 0xFFFFFFFFu);  // a Wayland surface takes the swapchain's size
  captureFrames(nullptr);                             // every frame
  uint64_t n = 0;
  for (VkPresentModeKHR mode : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_MAILBOX_KHR}) {
    VkSwapchainKHR sc = createSwapchain(mode, 3);
    ASSERT_NE(sc, VK_NULL_HANDLE);
    const uint64_t first = n + 1;
    for (int i = 0; i < 5; ++i) frame(sc, ++n);
    destroySwapchain(sc);
    // MAILBOX may replace a frame before it is shown (and captured); the others show them all.
    for (uint64_t k = mode == VK_PRESENT_MODE_MAILBOX_KHR ? n : first; k <= n; ++k) expectCaptured(k);
  }
  EXPECT_NE(wl_display_roundtrip(display_), -1) << "the compositor closed the connection (a protocol error)";
}

// VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR is offered beside OPAQUE (wl_shm's ARGB8888 is
// premultiplied alpha): such a swapchain presents its frames as ARGB8888 buffers, which the
// compositor takes without a protocol error, and they are the rendered ones.
TEST_F(WsiWayland, APremultipliedAlphaSwapchainPresentsItsFrames) {
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps));
  EXPECT_EQ(caps.supportedCompositeAlpha,
            VkCompositeAlphaFlagsKHR(VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR | VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR));
  captureFrames(nullptr);
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, VK_FORMAT_B8G8R8A8_UNORM,
                                      {kWidth, kHeight}, VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR);
  ASSERT_NE(sc, VK_NULL_HANDLE);
  for (uint64_t n = 1; n <= 4; ++n) frame(sc, n);
  destroySwapchain(sc);
  for (uint64_t n = 1; n <= 4; ++n) expectCaptured(n);
  EXPECT_NE(wl_display_roundtrip(display_), -1) << "the compositor closed the connection (a protocol error)";
}

// Weston killed with frames in flight: acquire or present returns VK_ERROR_SURFACE_LOST_KHR (or
// VK_ERROR_OUT_OF_DATE_KHR) within a few frames; the surface queries say it is lost.
TEST_F(WsiWayland, AKilledCompositorLosesTheSurfaceNotTheProgram) {
  VkSwapchainKHR sc = createSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  ASSERT_NE(sc, VK_NULL_HANDLE);
  frame(sc, 1);
  frame(sc, 2);
  weston_->kill();
  VkResult failed = VK_SUCCESS;
  for (uint64_t n = 3; n < 20 && failed == VK_SUCCESS; ++n) {
    uint32_t index = UINT32_MAX;
    const VkResult acquire = vkAcquireNextImageKHR(device, sc, 5'000'000'000ull, acquired, VK_NULL_HANDLE, &index);
    if (acquire != VK_SUCCESS) {
      failed = acquire;
      break;
    }
    const VkResult present = renderAndPresent(sc, index, n);
    if (present != VK_SUCCESS) failed = present;
  }
  EXPECT_TRUE(failed == VK_ERROR_SURFACE_LOST_KHR || failed == VK_ERROR_OUT_OF_DATE_KHR) << failed;
  VkSurfaceCapabilitiesKHR caps;
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physicalDevice, surface, &caps), VK_ERROR_SURFACE_LOST_KHR);
}

}  // namespace
}  // namespace tessera_test
