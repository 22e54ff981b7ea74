// Seam: buffered file reading and writing through the obfuscation (Bitcoin Core's AutoFile, BufferedWriter,
// BufferedReader in streams.h).
//
// Contract (docs/semantics.md, "Files"): the interface of src/io/file.h and src/io/buffered.h —
//   AutoFile(FILE*, Obfuscation)  owns the FILE*; Read/Write/Ignore/Seek/Size/Position/Close; every byte
//                                 at absolute position p is XORed with key[p mod 8] on its way in and out;
//                                 a short read, a failed write, a seek past the end or use after Close
//                                 throws IoError and leaves the position where it was documented to be.
//   BufferedWriter(AutoFile&, n)  buffers up to n bytes; Flush() and the destructor write them through.
//   BufferedReader(AutoFile&, n)  reads ahead n bytes; Read() of more than what is left throws IoError.
#pragma once

#include "seam/types.h"

#if SUITE_SUBJECT_CORE
#include "core/file_io.h"
namespace seam {
using core_adapter::AutoFile;
using core_adapter::BufferedReader;
using core_adapter::BufferedWriter;
using core_adapter::IoError;
}  // namespace seam
#else
#include "src/io/buffered.h"
#include "src/io/file.h"
namespace seam {
using embedded::AutoFile;
using embedded::BufferedReader;
using embedded::BufferedWriter;
using embedded::IoError;
}  // namespace seam
#endif
