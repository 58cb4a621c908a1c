# cmake -DCTEST=<ctest> -DTREE=<build tree> -P check_names.cmake   (or -DLISTING=<file>: its text)
# Fails unless every test name `ctest -N` lists is stable and readable: no pointer address (0x...),
# no printed parameter value (CMake's "# GetParam() = ...", "N-byte object <...>"), no bare index
# of a value-parameterized test (/0, /1: its INSTANTIATE_TEST_SUITE_P lacks a name generator),
# only the characters of GoogleTest names and paths: letters, digits, _ . / -
cmake_minimum_required(VERSION 3.25)

if(DEFINED LISTING)
  file(READ "${LISTING}" out)
else()
  execute_process(COMMAND "${CTEST}" -N --test-dir "${TREE}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ctest -N --test-dir ${TREE} failed (${rc}):\n${out}\n${err}")
  endif()
endif()
# One list element per line: ';' and brackets would change how CMake splits a list.
string(REPLACE ";" "@gf_semicolon@" out "${out}")
string(REPLACE "[" "@gf_open@" out "${out}")
string(REPLACE "]" "@gf_close@" out "${out}")
string(REPLACE "\n" ";" lines "${out}")

set(checked 0)
set(bad "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^ *Test +#[0-9]+: (.*)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_1}")
  string(REGEX REPLACE " \\(Disabled\\)$" "" name "${name}")  # how ctest -N marks a DISABLED_ test
  math(EXPR checked "${checked} + 1")
  set(why "")
  if(name MATCHES "0x")
    set(why "a pointer address (0x...)")
  elseif(name MATCHES "GetParam|byte object|#")
    set(why "a printed parameter value")
  elseif(name MATCHES "/[0-9]+$")
    set(why "a numbered parameter: give its INSTANTIATE_TEST_SUITE_P a name generator")
  elseif(NOT name MATCHES "^[A-Za-z0-9_./-]+$")
    set(why "characters other than letters, digits and _ . / -")
  endif()
  if(why)
    string(REPLACE "@gf_semicolon@" ";" name "${name}")
    string(REPLACE "@gf_open@" "[" name "${name}")
    string(REPLACE "@gf_close@" "]" name "${name}")
    string(APPEND bad "  ${name}\n      ${why}\n")
  endif()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "ctest -N listed no test: nothing checked\n${out}")
endif()
if(bad)
  message(FATAL_ERROR "CTest names that change from build to build or cannot be read "
                      "(tests/CMakeLists.txt explains how names are made):\n${bad}")
endif()
message(NOTICE "${checked} CTest names: stable and readable")
