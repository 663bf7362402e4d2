#include "wsi_presenter.h"

#include <optional>
#include <system_error>

namespace tessera {

Presenter::Presenter(bool mailbox, Output output, Release release)
    : mailbox_(mailbox), output_(std::move(output)), release_(std::move(release)) {
  try {
    thread_ = std::thread(&Presenter::run, this);
  } catch (const std::system_error&) {
  }
}

Presenter::~Presenter() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_one();
  thread_.join();
}

void Presenter::present(const Request& request) {
  std::optional<uint32_t> replaced;
  {
    std::lock_guard lock(mutex_);
    // MAILBOX: the one waiting image (not yet taken by the thread) gives way to the newer one.
    if (mailbox_ && !queue_.empty()) {
      replaced = queue_.front().image;
      queue_.clear();
    }
    queue_.push_back(request);
  }
  work_.notify_one();
  if (replaced) release_(*replaced);
}

void Presenter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything queued has been shown
    const Request r = queue_.front();
    queue_.pop_front();
    lock.unlock();
    output_(r);
    release_(r.image);
    lock.lock();
  }
}

}  // namespace tessera
