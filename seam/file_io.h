// Seam: buffered file reading and writing through the obfuscation (Bitcoin Core's AutoFile, BufferedWriter,
// BufferedReader in streams.h).
//
// Contract (docs/semantics.md, "Files"): the interface of src/io/file.h and src/io/buffered.h —
//   AutoFile(FILE*, Obfuscation)  owns the FILE*; Read/Write/Ignore/Seek/Size/Position/Close; every byte
//                                 at absolute position p is XORed with key[p mod 8] on its way in and out;
//                                 a short read, a failed write, a seek past the end or use after Close
//                                 throws IoError and leaves the position where it was documented to be.
//   BufferedWriter(AutoFile&, n)  buffers up to n bytes; Flush() and the destructor write them through.
//   BufferedReader(AutoFile&&, n) reads ahead n bytes; Read() of more than what is left throws IoError.
//   AutoFile also: Truncate, Commit, Release (the FILE* handed over, the object closed).
//   BufferedFile(AutoFile&, size, rewind)  the -loadblock reader: a ring buffer of the last `size` bytes
//                                 read, with SetPos back into it, SetLimit, SkipTo, FindByte, Eof.
// Where Bitcoin Core's contract differs, a constant says which way this build's subject goes (each is
// explained in core/file_io.h):
//   kShortIgnorePositionExact    after an Ignore that comes up short, the position is past the bytes skipped
//   kSizeUnknownPositionThrows   Size() throws (rather than returning nothing) when the position is unknown
//   kFailedWriteRemembered       a failed write makes later writes and Close() throw
// What the subject offers beyond AutoFile's central operations (Bitcoin Core: where the tree has it):
//   kFileLifecycle               Size, Truncate, Commit, Release
//   kBufferedStreams             BufferedWriter and BufferedReader
//   kZeroBufferSizeIsOne         a buffer size of 0 is taken as 1
//   kDirectionChangeSeeks        switching between reading and writing seeks (and fails if seeking fails)
//   kPositionUnknownAfterFailedSeek  a seek or Size() that fails midway leaves the position unknown
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/file_io.h"
namespace seam {
using core_adapter::AutoFile;
using core_adapter::BufferedFile;
using core_adapter::BufferedReader;
using core_adapter::BufferedWriter;
using core_adapter::IoError;
using core_adapter::kBufferedStreams;
using core_adapter::kDirectionChangeSeeks;
using core_adapter::kFailedWriteRemembered;
using core_adapter::kFileLifecycle;
using core_adapter::kPositionUnknownAfterFailedSeek;
using core_adapter::kShortIgnorePositionExact;
using core_adapter::kSizeUnknownPositionThrows;
using core_adapter::kZeroBufferSizeIsOne;
}  // namespace seam
#else
#include "src/io/buffered.h"
#include "src/io/buffered_file.h"
#include "src/io/file.h"
namespace seam {
using embedded::AutoFile;
using embedded::BufferedFile;
using embedded::BufferedReader;
using embedded::BufferedWriter;
using embedded::IoError;
inline constexpr bool kShortIgnorePositionExact = true;
inline constexpr bool kSizeUnknownPositionThrows = false;
inline constexpr bool kFailedWriteRemembered = true;
inline constexpr bool kFileLifecycle = true;
inline constexpr bool kBufferedStreams = true;
inline constexpr bool kZeroBufferSizeIsOne = true;
inline constexpr bool kDirectionChangeSeeks = true;
inline constexpr bool kPositionUnknownAfterFailedSeek = true;
}  // namespace seam
#endif
