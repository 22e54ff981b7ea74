#include "store_crash_model.h"

#include <algorithm>

#include "check.h"

namespace harness {
HARNESS_NO_FUZZ_COVERAGE_BEGIN  // oracle code

KvMap StoreFlush::After(const KvMap& before, size_t batches) const {
  return batches == 0 && floor == 0 ? before : plan.MidFlush(before, std::max(floor, batches ? ends[batches - 1] : 0));
}

void StoreCrashModel::Opened(KvMap state, std::optional<PendingStoreFlush> pending) {
  durable_ = std::move(state);
  durable_pending_ = std::move(pending);
  since_open_.clear();
}

StoreCrashModel::Outcome StoreCrashModel::After(const KvMap& reference, const std::optional<StoreFlush>& current,
                                                bool power_loss) const {
  Outcome out;
  auto& legal = out.legal_;
  if (power_loss) {
    // The state before each flush since the open: the last one left `reference`, and each one's undo log
    // takes the state after it back to the state before it, which the flush before it left.
    out.befores_.resize(since_open_.size());
    KvMap walked = reference;
    for (size_t i = out.befores_.size(); i-- > 0;) {
      since_open_[i].plan.Revert(walked, since_open_[i].undo);
      out.befores_[i] = walked;
    }
    HARNESS_CHECK(walked == (durable_pending_ ? durable_pending_->before : durable_),
                  "the store model's undo logs do not lead back to the state the store was opened in");
    if (durable_pending_) {
      legal.push_back({durable_, &durable_pending_->flush, &durable_pending_->before});
    } else {
      legal.push_back({durable_});
    }
    for (size_t i = 0; i < out.befores_.size(); ++i) {
      const StoreFlush& r = since_open_[i];
      for (size_t b = 1; b <= r.partial_written && b <= r.ends.size(); ++b) {
        legal.push_back({r.After(out.befores_[i], b), &r, &out.befores_[i]});
      }
      if (r.completed) legal.push_back({i + 1 < out.befores_.size() ? out.befores_[i + 1] : reference});
    }
  }
  if (current) {
    // It wrote its first partial_written batches; the one that failed may or may not have been applied.
    for (size_t b = power_loss ? 0 : current->partial_written; b <= current->partial_written; ++b) {
      const bool unfinished = b > 0 || current->floor > 0;
      legal.push_back({current->After(reference, b), unfinished ? &*current : nullptr, &reference});
    }
    if (current->partial_written < current->ends.size()) {
      legal.push_back({current->After(reference, current->partial_written + 1), &*current, &reference});
    } else {
      legal.push_back({current->plan.Complete(reference)});
    }
  } else {
    legal.push_back({reference});
  }
  if (durable_pending_) out.unfinished_.push_back({{}, &durable_pending_->flush, &durable_pending_->before});
  for (size_t i = 0; i < out.befores_.size(); ++i) out.unfinished_.push_back({{}, &since_open_[i], &out.befores_[i]});
  if (current) out.unfinished_.push_back({{}, &*current, &reference});
  return out;
}

const StoreCrashModel::Legal* StoreCrashModel::Outcome::Find(const KvMap& state, bool any_order) {
  const auto match = std::find_if(legal_.begin(), legal_.end(), [&](const Legal& l) { return l.state == state; });
  if (match != legal_.end()) return &*match;
  if (!any_order) return nullptr;
  for (const Legal& l : unfinished_) {
    if (l.pending->plan.IsLegalMidFlush(*l.before, state, /*any_order=*/true)) {
      legal_.push_back({state, l.pending, l.before});
      return &legal_.back();
    }
  }
  return nullptr;
}

HARNESS_NO_FUZZ_COVERAGE_END
}  // namespace harness
