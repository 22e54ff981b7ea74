#include "thread_pool.h"

#include <utility>

namespace embedded {

ThreadPool::ThreadPool(int workers) {
  threads_.reserve(static_cast<size_t>(workers));
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { Work(); });
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

std::vector<std::future<void>> ThreadPool::Submit(std::vector<std::function<void()>> jobs) {
  std::vector<std::future<void>> futures;
  if (threads_.empty()) return futures;
  {
    const std::lock_guard lock(mutex_);
    for (auto& job : jobs) {
      std::packaged_task<void()>& task = queue_.emplace_back(std::move(job));
      futures.push_back(task.get_future());
    }
  }
  wake_.notify_all();
  return futures;
}

void ThreadPool::Work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left to run
    std::packaged_task<void()> task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace embedded
