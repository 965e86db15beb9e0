"""A Claude home: configuration (the only reader of the environment), memory paths and git roots."""
