cmake_policy(SET CMP0057 NEW)  # if(IN_LIST) in script mode
# The formats library's installed headers compile alone (issue 32): install the `formats`
# component of the build into a scratch prefix, then compile, for every header there, a file that
# includes only it (twice: #pragma once) with only the prefix's include/ on the include path, with
# -Wall -Wextra -Werror; and with nvcc, as CUDA, a file that includes every header that marks
# functions for device code (GRIDFUZZ_FORMATS_HD). A header that needs one it does not include, one
# that was not installed, or a non-public one fails here, naming the header and the compiler's
# message. Also: the installed headers are exactly those of formats/include.
# Run as: cmake -DBUILD_DIR=<build> -DSOURCE_INCLUDE=<formats/include> -DWORK=<scratch dir>
#               -DCXX=<c++ compiler> [-DNVCC=<nvcc>] -P headers_alone.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --component formats --prefix ${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --component formats failed:\n${out}")
endif()
set(include_dir ${WORK}/prefix/include)
file(GLOB_RECURSE installed RELATIVE ${include_dir} ${include_dir}/*)
file(GLOB_RECURSE source RELATIVE ${SOURCE_INCLUDE} ${SOURCE_INCLUDE}/*)
list(SORT installed)
list(SORT source)
if(NOT installed STREQUAL source)
  message(FATAL_ERROR "the installed headers are not those of ${SOURCE_INCLUDE}:\ninstalled: ${installed}\nsource: ${source}")
endif()
list(LENGTH installed count)
if(count EQUAL 0)
  message(FATAL_ERROR "no header installed under ${include_dir}")
endif()

set(failed "")
set(device_headers "")
set(n 0)
foreach(header ${installed})
  math(EXPR n "${n} + 1")
  set(tu ${WORK}/alone_${n}.cpp)
  file(WRITE ${tu} "#include \"${header}\"\n#include \"${header}\"\n")
  execute_process(COMMAND ${CXX} -std=c++20 -Wall -Wextra -Werror -fsyntax-only -I${include_dir} ${tu}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    list(APPEND failed ${header})
    message(SEND_ERROR "${header} does not compile alone:\n${out}")
  endif()
  file(READ ${include_dir}/${header} text)
  if(text MATCHES "GRIDFUZZ_FORMATS_HD [a-z]" AND NOT header STREQUAL "gridfuzz/formats/host_device.hpp")
    list(APPEND device_headers ${header})
  endif()
endforeach()

if(NVCC)
  set(cu "")
  foreach(header ${device_headers})
    string(APPEND cu "#include \"${header}\"\n")
  endforeach()
  file(WRITE ${WORK}/device_headers.cu "${cu}__global__ void every_device_header_included() {}\n")
  execute_process(COMMAND ${NVCC} -std=c++20 -c ${WORK}/device_headers.cu -o ${WORK}/device_headers.o
                          -I${include_dir} -Xcompiler=-Wall,-Wextra -Werror=all-warnings
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    list(APPEND failed "the device headers under nvcc")
    message(SEND_ERROR "the device headers (${device_headers}) do not compile as CUDA:\n${out}")
  endif()
endif()

list(LENGTH device_headers device_count)
if(failed)
  message(FATAL_ERROR "failed: ${failed}")
endif()
message(STATUS "${count} installed headers, each compiles alone; ${device_count} device headers compile as CUDA")
