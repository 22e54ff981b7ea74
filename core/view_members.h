// Members of a Bitcoin Core interface, overridden in whatever form the tree declares them. A class of the
// suite's that Core sees through one of its interfaces (a CCoinsView under a Core cache) must match each
// virtual member exactly: its parameters, return type, const and noexcept. Restating them with the
// signatures of the trees at hand breaks the build on the next tree that reshapes one, so they are read from
// the tree instead: `&Interface::Name`'s type is split into its parts, and the override is declared with
// those parts. A member the tree does not declare (or declares overloaded, so that its address is
// ambiguous) gets no override; if it is pure, the class stays abstract, which callers ask
// (std::is_abstract_v) before building one, and configure names the member (cmake/CoreProbe.cmake).
//
// SUITE_CORE_MEMBER_LAYER(Name) defines Name##Layer<Final, Base>: Base (with Base's constructors), plus,
// where Base declares Name, an override of it that calls `Final::Do##Name` with the same arguments (Final: the
// class at the end of the chain, CRTP). Do##Name may return what Name returns or anything that converts to it; where
// Name returns bool and Do##Name returns nothing, the override returns true (a view that reports a refusal by throwing,
// as Core's do since #33866, has applied what it was given). No override is marked `override`: a member
// that is not virtual in some tree is then a plain member, never an error.
#pragma once

#include <type_traits>
#include <utility>

namespace core_adapter::members {

// The result of calling `f`, as a function that returns R returns it.
template <class R, class F>
R ReturnAs(F&& f) {
  if constexpr (std::is_void_v<R>) {
    f();
  } else if constexpr (std::is_void_v<decltype(f())>) {
    static_assert(std::is_same_v<R, bool>, "only a bool result stands for a call that returns nothing");
    f();
    return true;
  } else {
    return f();
  }
}

}  // namespace core_adapter::members

#define SUITE_CORE_MEMBER_OVERRIDE(Name, Qual, Self)                                                     \
  template <class Final, class Base, class R, class C, class... A, bool kNoexcept>                       \
  struct Name##Override<Final, Base, R (C::*)(A...) Qual noexcept(kNoexcept)> : Base {                   \
    using Base::Base;                                                                                    \
    R Name(A... a) Qual noexcept(kNoexcept) {                                                            \
      return ::core_adapter::members::ReturnAs<R>(                                                       \
          [&]() -> decltype(auto) { return static_cast<Self>(*this).Do##Name(std::forward<A>(a)...); }); \
    }                                                                                                    \
  };

#define SUITE_CORE_MEMBER_LAYER(Name)                                         \
  template <class Final, class Base, class Pointer>                           \
  struct Name##Override : Base {                                              \
    using Base::Base;                                                         \
  };                                                                          \
  SUITE_CORE_MEMBER_OVERRIDE(Name, const, const Final&)                       \
  SUITE_CORE_MEMBER_OVERRIDE(Name, , Final&)                                  \
  template <class Final, class Base, class = void>                            \
  struct Name##Layer : Base {                                                 \
    using Base::Base;                                                         \
  };                                                                          \
  template <class Final, class Base>                                          \
  struct Name##Layer<Final, Base, std::void_t<decltype(&Base::Name)>>         \
      : Name##Override<Final, Base, decltype(&Base::Name)> {                  \
    using Name##Override<Final, Base, decltype(&Base::Name)>::Name##Override; \
  };
