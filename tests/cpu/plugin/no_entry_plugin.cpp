// A shared library without the gridfuzz entry points: loading it must fail with a clear message.
extern "C" __attribute__((visibility("default"))) int not_a_gridfuzz_plugin() { return 42; }
