"""What the box keeps on its card: the journal, its check and recovery at start, the
rolling backups, atomic writes, the card files (shipped and the owner's), the statistics
cache and the configuration.

The lowest room: it uses no other.
"""
