"""What tools/versus-core compares: per component, the suite's targets and tests against Bitcoin Core's own.

Core's side was chosen by reading the tree's src/test/fuzz/ and src/test/*_tests.cpp for the classes each
component is about. Where Core has no target for something the suite fuzzes, the pairing says so.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Component:
    suite_targets: tuple
    core_targets: tuple
    suite_tests: str   # ctest -R regex over the core-test build's tests
    core_tests: tuple  # Boost.Test suites of Core's test_bitcoin
    note: str = ""


COMPONENTS = {
    "coins_cache": Component(
        ("coins_cache_sim", "coins_overlay_sim"), ("coinscache_sim", "coins_view", "coins_view_overlay", "coins_view_stacked"),
        r"^(replay\.(coins_cache_sim|coins_overlay_sim)|unit\.(coins_cache|coins_overlay))$",
        ("coins_tests_base", "coins_tests", "coinscachepair_tests"),
        "coins_view_overlay and coins_view_stacked exist from Core #34165 on; a tree without them runs the others."),
    "coins_store": Component(
        ("coins_db_flush",), ("coins_view_db",),
        r"^(replay\.coins_db_flush|unit\.coins_store|unit\.store_encoding)$",
        ("coins_tests_dbbase", "dbwrapper_tests", "compress_tests")),
    "file_io": Component(
        ("obfuscation_diff", "file_io_sim", "block_file_read"), ("autofile", "buffered_file", "load_external_block_file"),
        r"^(replay\.(obfuscation_diff|file_io_sim|block_file_read)|unit\.(obfuscation|file_io))$",
        ("streams_tests", "blockmanager_tests", "flatfile_tests"),
        "Core has no target for BlockManager's block and undo readers; load_external_block_file (the -loadblock "
        "parser of blk files) is the nearest. Obfuscation is fuzzed through autofile and buffered_file."),
    "tx_checks": Component(
        ("tx_check_diff", "tx_inputs_sim", "block_check_diff"), ("transaction", "decode_tx", "block"),
        r"^(replay\.(tx_check_diff|tx_inputs_sim|block_check_diff)|unit\.tx_check|txcheck\..*)$",
        ("transaction_tests", "validation_block_tests")),
    "prevector": Component(
        ("prevector_sim",), ("prevector",),
        r"^(replay\.prevector_sim|unit\.prevector)$",
        ("prevector_tests",)),
}
