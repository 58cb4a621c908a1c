// Linked by cmake/Sanitizers.cmake (GRIDFUZZ_SANITIZE=ON) into programs that die by SIGSEGV on
// purpose: tests/cpu/engine's fake worker raises it to play a crashing worker, and its test wants
// "signal 11". ASan's own handler would turn the signal into a report and exit 1; here it leaves
// SIGSEGV alone (ASAN_OPTIONS given at run time still override this).
extern "C" const char* __asan_default_options() { return "handle_segv=0"; }
