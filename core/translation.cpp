// Core's translation hook, which each of Core's executables defines and its kernel library defines for its
// users. Compiled only when the suite links the libraries of a Core build (SUITE_CORE_LIBS_DIR) instead of
// the kernel library: no translations, as in Core's tests and fuzz binary.
#include <util/translation.h>

const TranslateFn G_TRANSLATION_FUN{nullptr};
