#include "gridfuzz/core/oracle_result.hpp"

namespace gridfuzz {

std::string OracleResult::to_string() const {
  switch (kind) {
    case Kind::not_run: return "-";
    case Kind::guard: return "guard:" + where;
    case Kind::reference_fault: return "reference-fault:" + where;
    case Kind::reference_refused: return "reference-refused";
    case Kind::device_fault: return "oracle-fault";
    case Kind::compared:
      return std::string(exact ? "split:exact:" : "split:tol:") + std::to_string(split_mismatches) +
             " unwritten:" + std::to_string(unwritten) + " cpu:" + std::to_string(cpu_ok) + "/" +
             std::to_string(cpu_total);
  }
  return "?";
}

}  // namespace gridfuzz
