// The presentation engine of one swapchain: a thread that takes presented images in order,
// hands each to the output (frame capture, a window) and then gives it back, so that reading
// images out never runs on the application's thread or the queue's.
//
// The presenter waits for no refresh cycle itself (there is none, or one Tessera only copies
// into; a Wayland output waits for the compositor's frame callbacks in FIFO), so here the
// present modes differ only in what is queued: FIFO, FIFO_RELAXED and IMMEDIATE show every
// presented image in order; MAILBOX keeps at most one image waiting, and a newer present
// replaces it (the replaced image returns to the application unshown).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace tessera {

class Presenter {
 public:
  struct Request {
    uint32_t image;
    uint64_t frame;  // the device's present count: frame numbers of captures
  };
  using Output = std::function<void(const Request&)>;  // reads the image out
  using Release = std::function<void(uint32_t image)>;  // the image is the application's again

  // Fails (returns false from started()) when no thread can be started.
  Presenter(bool mailbox, Output output, Release release);
  ~Presenter();  // shows everything still queued, then stops
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;

  bool started() const { return thread_.joinable(); }
  void present(const Request& request);

 private:
  void run();

  const bool mailbox_;
  Output output_;
  Release release_;
  std::mutex mutex_;
  std::condition_variable work_;
  std::deque<Request> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tessera
