// Reads back what a real program shows in its X11 window on a test's own Xvfb server (no
// window manager, so the program's window is a direct child of the root): the oracle side of
// the real-program tests, since lavapipe has no frame capture (zink_test.cpp, mpv_test.cpp).
#pragma once

#include <xcb/xcb.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "wsi_fixture.h"

namespace tessera_test {

// The contents of the first mapped child of the root window of `display` as RGB, or an empty
// image when there is none yet or it cannot be read. Xvfb's depth-24 pixels are 0x00RRGGBB words.
inline Png readFirstTopLevelWindow(const std::string& display) {
  Png out;
  xcb_connection_t* c = xcb_connect(display.c_str(), nullptr);
  if (xcb_connection_has_error(c)) {
    xcb_disconnect(c);
    return out;
  }
  const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
  xcb_query_tree_reply_t* tree = xcb_query_tree_reply(c, xcb_query_tree(c, screen->root), nullptr);
  const xcb_window_t* children = tree ? xcb_query_tree_children(tree) : nullptr;
  const int count = tree ? xcb_query_tree_children_length(tree) : 0;
  for (int i = 0; i < count && out.rgb.empty(); ++i) {
    xcb_get_window_attributes_reply_t* attributes =
        xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, children[i]), nullptr);
    const bool viewable = attributes && attributes->map_state == XCB_MAP_STATE_VIEWABLE;
    std::free(attributes);
    xcb_get_geometry_reply_t* geometry = viewable ? xcb_get_geometry_reply(c, xcb_get_geometry(c, children[i]), nullptr) : nullptr;
    if (geometry && geometry->depth == 24) {
      xcb_get_image_reply_t* image = xcb_get_image_reply(
          c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, children[i], 0, 0, geometry->width, geometry->height, ~0u), nullptr);
      if (image && xcb_get_image_data_length(image) >= 4 * geometry->width * geometry->height) {
        const uint8_t* data = xcb_get_image_data(image);
        out.width = geometry->width;
        out.height = geometry->height;
        for (uint32_t p = 0; p < out.width * out.height; ++p) out.rgb.insert(out.rgb.end(), {data[4 * p + 2], data[4 * p + 1], data[4 * p]});
      }
      std::free(image);
    }
    std::free(geometry);
  }
  std::free(tree);
  xcb_disconnect(c);
  return out;
}

// Waits up to `seconds` for the program's window to settle on a picture that is not one flat
// colour (a program clears before it draws): the same contents read twice, `settle` apart.
// Returns that picture, or the last one read (maybe empty) when it did not settle.
inline Png waitForSteadyWindow(const std::string& display, int seconds,
                               std::chrono::milliseconds settle = std::chrono::milliseconds(700)) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  Png last;
  while (std::chrono::steady_clock::now() < deadline) {
    Png now = readFirstTopLevelWindow(display);
    bool flat = true;
    for (size_t i = 3; i < now.rgb.size() && flat; ++i) flat = now.rgb[i] == now.rgb[i % 3];
    if (!now.rgb.empty() && !flat && now.width == last.width && now.height == last.height && now.rgb == last.rgb)
      return now;
    last = std::move(now);
    std::this_thread::sleep_for(settle);
  }
  return last;
}

}  // namespace tessera_test
