// ThreadPool: a fixed set of worker threads that run queued jobs, for CoinsViewOverlay's prevout fetchers.
// Semantics: docs/semantics.md §1 (the overlay).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace embedded {

class ThreadPool {
 public:
  // Starts `workers` threads (0: none; Submit then runs nothing).
  explicit ThreadPool(int workers);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  // Runs what is queued, then joins the workers.
  ~ThreadPool();

  int workers() const { return static_cast<int>(threads_.size()); }
  // Queues each job; the future of each is ready once it has run. Empty when the pool has no workers.
  std::vector<std::future<void>> Submit(std::vector<std::function<void()>> jobs);

 private:
  void Work();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<void()>> queue_;  // guarded by mutex_
  bool stopping_ = false;                         // guarded by mutex_
  std::vector<std::thread> threads_;
};

}  // namespace embedded
