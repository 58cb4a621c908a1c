#include "gridfuzz/engine/worker_protocol.hpp"

#include <stdexcept>
#include <string_view>

#include "gridfuzz/engine/record_codec.hpp"

namespace gridfuzz {

bool write_record_reply(std::FILE* out, const CaseRecord& record) {
  const std::string body = encode_record(record);
  const std::string msg = "RECORD " + std::to_string(body.size()) + "\n" + body;
  return std::fwrite(msg.data(), 1, msg.size(), out) == msg.size() && std::fflush(out) == 0;
}

namespace {
constexpr std::string_view kCase = "CASE ";
constexpr std::string_view kCaseKeepingReference = "CASE-KEEP-REFERENCE ";
}  // namespace

std::string case_request_line(const CaseRequest& request) {
  return std::string(request.keep_reference ? kCaseKeepingReference : kCase) + request.replay + "\n";
}

std::optional<CaseRequest> read_case_request(std::FILE* in) {
  std::string line;
  int c = 0;
  while ((c = std::fgetc(in)) != EOF && c != '\n') line.push_back(static_cast<char>(c));
  if (c == EOF && line.empty()) return std::nullopt;
  for (const std::string_view prefix : {kCase, kCaseKeepingReference})
    if (line.starts_with(prefix))
      return CaseRequest{line.substr(prefix.size()), prefix == kCaseKeepingReference};
  throw std::runtime_error("worker: malformed request '" + line + "'");
}

void ReplyParser::reset() {
  buffer_.clear();
  length_.reset();
  record_ = CaseRecord();
}

bool ReplyParser::feed(const char* data, std::size_t n) {
  buffer_.append(data, n);
  if (!length_) {
    const std::size_t nl = buffer_.find('\n');
    if (nl == std::string::npos) return false;
    const std::string header = buffer_.substr(0, nl);
    const std::string prefix = "RECORD ";
    if (header.rfind(prefix, 0) != 0 || header.size() == prefix.size() ||
        header.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
      throw std::runtime_error("worker reply does not start with RECORD <length>");
    length_ = std::stoull(header.substr(prefix.size()));
    buffer_.erase(0, nl + 1);
  }
  if (buffer_.size() < *length_) return false;
  record_ = decode_record(std::string_view(buffer_).substr(0, *length_));
  buffer_.erase(0, *length_);
  return true;
}

}  // namespace gridfuzz
