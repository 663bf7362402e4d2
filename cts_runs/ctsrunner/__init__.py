"""Vulkan CTS (deqp-vk) runner for Tessera: sharded, crash-isolated runs
compared against lavapipe. The entry point is cts_runs/run."""
