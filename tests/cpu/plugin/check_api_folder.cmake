cmake_policy(SET CMP0057 NEW)  # if(IN_LIST) in script mode
# harness/include/gridfuzz holds the installed plugin API and nothing else (issue 12): every header
# there is listed in GRIDFUZZ_API_HEADERS (cmake/plugins.cmake), and every listed one is there.
# Run as: cmake -DINCLUDE_DIR=<harness/include> -DAPI_HEADERS=<comma-separated list> -P check_api_folder.cmake
string(REPLACE "," ";" API_HEADERS "${API_HEADERS}")
file(GLOB_RECURSE present RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/*)
set(failed FALSE)
foreach(header ${present})
  if(NOT header IN_LIST API_HEADERS)
    message(SEND_ERROR "${INCLUDE_DIR}/${header} is not a plugin API header: move it to its target's include/ folder, or list it in cmake/plugins.cmake")
    set(failed TRUE)
  endif()
endforeach()
foreach(header ${API_HEADERS})
  if(NOT header IN_LIST present)
    message(SEND_ERROR "cmake/plugins.cmake lists ${header}, which is not in ${INCLUDE_DIR}")
    set(failed TRUE)
  endif()
endforeach()
if(NOT failed)
  list(LENGTH present n)
  message(STATUS "${n} headers, all of them plugin API")
endif()
