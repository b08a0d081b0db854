"""The command line: thin wrappers that parse flags and call the library."""
