# The plugin API in-tree: the adapter headers as plugins see them (gridfuzz::api), and
# gridfuzz_add_plugin(). Only the headers listed here are public: they are staged into the build
# tree, so an in-tree plugin (the self-tests) that includes anything else fails to compile, exactly
# as it would against an installed gridfuzz.
set(GRIDFUZZ_API_HEADERS
  gridfuzz/api_version.hpp
  gridfuzz/plugin.hpp
  gridfuzz/registry.hpp
  gridfuzz/kernel.hpp
  gridfuzz/params.hpp
  gridfuzz/launch_plan.hpp
  gridfuzz/launch_spec.hpp
  gridfuzz/index_range.hpp
  gridfuzz/checked_math.hpp
  gridfuzz/device_limits.hpp
  gridfuzz/predictor.hpp
  gridfuzz/device/launcher.hpp
  gridfuzz/device/function.hpp
  gridfuzz/device/module.hpp
  gridfuzz/device/handle.hpp
  gridfuzz/device/cuda_error.hpp
  gridfuzz/device/symbol_resolvers.hpp
  gridfuzz/device/launch_recorder.hpp
  gridfuzz/crash_note.hpp
  gridfuzz/parallel_for.hpp
)
set(GRIDFUZZ_API_STAGE ${PROJECT_BINARY_DIR}/plugin-api/include)
foreach(header ${GRIDFUZZ_API_HEADERS})
  configure_file(${PROJECT_SOURCE_DIR}/harness/include/${header} ${GRIDFUZZ_API_STAGE}/${header} COPYONLY)
endforeach()

file(STRINGS ${PROJECT_SOURCE_DIR}/harness/include/gridfuzz/api_version.hpp _api_line
     REGEX "^#define GRIDFUZZ_API_VERSION [0-9]+")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" GRIDFUZZ_API_VERSION "${_api_line}")

add_library(gridfuzz_api INTERFACE)
target_include_directories(gridfuzz_api INTERFACE $<BUILD_INTERFACE:${GRIDFUZZ_API_STAGE}>)
target_link_libraries(gridfuzz_api INTERFACE CUDA::toolkit Threads::Threads)  # threads: parallel_for.hpp
add_library(gridfuzz::api ALIAS gridfuzz_api)

include(${CMAKE_CURRENT_LIST_DIR}/gridfuzzPlugin.cmake)
