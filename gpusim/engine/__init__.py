"""The timing engine: the simulation loop, the only layer that knows time."""
