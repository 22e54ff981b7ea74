// What a Bitcoin Core adapter throws when asked for an API the tree under test lacks (a feature row that
// answered no: core/features.h). The harness asks the seam first and never calls such an operation; a
// throw means a caller forgot to, and names the API.
#pragma once

#include <stdexcept>
#include <string>

namespace core_adapter {

class Unavailable : public std::logic_error {
 public:
  explicit Unavailable(const std::string& api)
      : std::logic_error("this Bitcoin Core tree lacks " + api + " (see the table configure printed)") {}
};

// f(object) where kHas, else throws Unavailable(api). `f` is a generic lambda that reaches Core only through
// its parameter, so its body is instantiated (and Core's API named) only where the tree has it.
template <bool kHas, typename R, typename T, typename F>
R IfTreeHas(const char* api, T& object, F&& f) {
  if constexpr (kHas) {
    return f(object);
  } else {
    throw Unavailable(api);
  }
}

}  // namespace core_adapter

namespace core_adapter {

// T, named so that it is looked up only when a template using it is instantiated with `Dep`: a Core class
// that only an optional API needs stays unnamed where the tree lacks it (it must be declared: core/features.h).
template <class Dep, class T>
struct LaterType {
  using type = T;
};
template <class Dep, class T>
using Later = typename LaterType<Dep, T>::type;

}  // namespace core_adapter

namespace core_adapter {
// The table of what this tree lets the suite test, as configure printed it, and the tree's folder (its real
// path), which the failure report tells the tree's stack frames by (core/CMakeLists.txt generates both).
extern const char* const kCoreTable;
extern const char* const kCoreSourceDir;
}  // namespace core_adapter
