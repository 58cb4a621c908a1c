#pragma once
// A CaseRecord as bytes and back, exactly (doubles round-trip), for the worker pipe. Each field is
// "<name> <byte length>\n<bytes>", so any bytes (a driver's or a plugin's text) pass unescaped.
// The names are the record's fields, not CSV columns: the pipe does not depend on the CSV schema.
// The tier is not sent: a worker's record has none until the sweep in the parent takes it.
#include <string>
#include <string_view>

#include "gridfuzz/engine/case_record.hpp"

namespace gridfuzz {

std::string encode_record(const CaseRecord& record);
// Throws std::runtime_error naming the field for a missing, repeated or malformed field.
CaseRecord decode_record(std::string_view bytes);

}  // namespace gridfuzz
