#include "gridfuzz/worker_protocol.hpp"

#include <stdexcept>

#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz {

bool write_row_reply(std::FILE* out, const reports::CsvRow& row, bool exiting_after) {
  std::string msg = exiting_after ? "ROW EXIT\n" : "ROW\n";
  for (const auto& v : row.values()) msg += std::to_string(v.size()) + "\n" + v;
  return std::fwrite(msg.data(), 1, msg.size(), out) == msg.size() && std::fflush(out) == 0;
}

std::optional<std::string> read_case_request(std::FILE* in) {
  std::string line;
  int c = 0;
  while ((c = std::fgetc(in)) != EOF && c != '\n') line.push_back(static_cast<char>(c));
  if (c == EOF && line.empty()) return std::nullopt;
  const std::string prefix = "CASE ";
  if (line.rfind(prefix, 0) != 0) throw std::runtime_error("worker: malformed request '" + line + "'");
  return line.substr(prefix.size());
}

void ReplyParser::reset() {
  buffer_.clear();
  column_ = 0;
  header_seen_ = false;
  exits_ = false;
  row_ = reports::CsvRow();
}

bool ReplyParser::feed(const char* data, std::size_t n) {
  buffer_.append(data, n);
  if (!header_seen_) {
    const std::size_t nl = buffer_.find('\n');
    if (nl == std::string::npos) return false;
    const std::string header = buffer_.substr(0, nl);
    if (header != "ROW" && header != "ROW EXIT") throw std::runtime_error("worker reply does not start with ROW");
    exits_ = header == "ROW EXIT";
    buffer_.erase(0, nl + 1);
    header_seen_ = true;
  }
  while (column_ < reports::kColumnCount) {
    const std::size_t nl = buffer_.find('\n');
    if (nl == std::string::npos) return false;
    const std::size_t len = std::stoull(buffer_.substr(0, nl));
    if (buffer_.size() < nl + 1 + len) return false;
    row_.set_at(column_++, buffer_.substr(nl + 1, len));
    buffer_.erase(0, nl + 1 + len);
  }
  return true;
}

}  // namespace gridfuzz
