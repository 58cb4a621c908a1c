#pragma once
// The pipe protocol between gridfuzz and its worker process.
//   parent -> worker:  "CASE <replay>\n", or "CASE-KEEP-REFERENCE <replay>\n" when the next case
//                      is of the same shape: the worker keeps this case's split reference for it
//                      (shared_reference.hpp)
//   worker -> parent:  "RECORD <byte length>\n<encoded CaseRecord>" (record_codec.hpp). A record
//                      with context_lost set is the worker's last: it exits after sending it.
#include <cstdio>
#include <optional>
#include <string>

#include "gridfuzz/engine/case_record.hpp"

namespace gridfuzz {

// Writes one reply to `out` and flushes. Returns false when the pipe is gone.
bool write_record_reply(std::FILE* out, const CaseRecord& record);

struct CaseRequest {
  std::string replay;
  bool keep_reference = false;  // the next request is of the same shape
};

// The request line, newline included: the one place that writes it.
std::string case_request_line(const CaseRequest& request);

// Reads one request line; nullopt at end of input. Throws std::runtime_error for a line that is
// not a request.
std::optional<CaseRequest> read_case_request(std::FILE* in);

// Incremental parser of the worker's reply (the parent reads with a timeout, in chunks).
class ReplyParser {
 public:
  // Appends bytes; returns true once a whole reply has been received. Throws std::runtime_error
  // for a reply that is not one.
  bool feed(const char* data, std::size_t n);
  const CaseRecord& record() const { return record_; }
  void reset();
  bool started() const { return !buffer_.empty() || length_.has_value(); }

 private:
  std::string buffer_;
  std::optional<std::size_t> length_;  // of the encoded record, once the header line is read
  CaseRecord record_;
};

}  // namespace gridfuzz
