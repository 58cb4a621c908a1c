// The loader in-process: a plugin registers into the registry it is given, its path is remembered
// (absolute), and the worker process of a session is started with the same --plugin options.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "gridfuzz/plugin/plugin_loader.hpp"
#include "gridfuzz/app/session.hpp"

using namespace gridfuzz;

TEST(PluginLoader, RegistersIntoTheGivenRegistryAndThePathReachesTheWorker) {
  Registry registry;
  plugin::load_plugin(GRIDFUZZ_SELFTEST_PLUGIN, registry);
  EXPECT_TRUE(registry.find("selftest.flat_yz"));
  EXPECT_TRUE(registry.find("selftest.register_pressure"));
  EXPECT_TRUE(registry.find("selftest.race"));
  EXPECT_EQ(registry.all().size(), 11u);

  const auto loaded = plugin::loaded_plugins();
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_TRUE(std::filesystem::path(loaded[0]).is_absolute());
  EXPECT_TRUE(std::filesystem::equivalent(loaded[0], GRIDFUZZ_SELFTEST_PLUGIN));

  const auto argv = app::worker_argv(app::EngineOptions{}, 3);
  const auto plugin_flag = std::find(argv.begin(), argv.end(), "--plugin");
  const auto worker = std::find(argv.begin(), argv.end(), "worker");
  ASSERT_NE(plugin_flag, argv.end());
  ASSERT_NE(worker, argv.end());
  EXPECT_LT(plugin_flag, worker) << "global options go before the subcommand";
  EXPECT_EQ(*(plugin_flag + 1), loaded[0]);
  const auto device_flag = std::find(argv.begin(), argv.end(), "--device");
  ASSERT_NE(device_flag, argv.end());
  EXPECT_EQ(*(device_flag + 1), "3") << "each worker serves the device it is started for";
}

TEST(PluginLoader, ErrorsAreTypedAndNameTheFile) {
  Registry registry;
  try {
    plugin::load_plugin(NO_ENTRY_PLUGIN, registry);
    FAIL() << "a library without entry point loaded";
  } catch (const plugin::PluginError& e) {
    EXPECT_NE(std::string(e.what()).find(NO_ENTRY_PLUGIN), std::string::npos) << e.what();
  }
  EXPECT_TRUE(registry.all().empty());
}
