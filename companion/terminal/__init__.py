"""The terminal: the Click command line (cli), the interactive shell, script mode and the text
renderers. It knows games only through the contract in ``companion.contract.api``."""
