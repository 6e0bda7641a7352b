"""`python -m companion` runs the same entry point as the `companion` command."""

from companion.terminal.start import main

if __name__ == "__main__":  # pragma: no cover
    main()
