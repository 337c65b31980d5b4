// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Launchpad} from "../Launchpad.sol";

/// @title LaunchLens: the launch list in one `eth_call`, without deploying anything (D3)
/// @notice Never deployed. A client sends this contract's creation code with its constructor arguments as
/// an `eth_call` with no `to`; the constructor reads a page of the launchpad's launches (each record,
/// the token's name and symbol, the quote asset's symbol and decimals) and reverts with
/// {Answer}, whose data the node hands back. Reverting, not returning, because returned creation data
/// would become runtime code and is capped at 24,576 bytes (EIP-170); revert data is not.
/// @dev Reads only, so any node that runs `eth_call` runs it, at the block the client asks for. A client
/// that gets anything but {Answer} (a node that refuses calls without `to`, a gas cap too low for even
/// one row) reads the same values with ordinary view calls instead.
contract LaunchLens {
    /// @notice One launch as a person reads it.
    /// @param launch the launchpad's record; `launchTime == 0`: `token` is not a launch of this launchpad
    /// @param name the token's `name()` ("" when it does not answer with a string)
    /// @param symbol the token's `symbol()` (same)
    /// @param quoteSymbol the quote asset's `symbol()`: "ETH" for address(0), "" when it does not answer
    /// @param quoteDecimals the quote asset's `decimals()`: 18 for address(0) and when it does not answer
    struct Row {
        address token;
        Launchpad.Launch launch;
        string name;
        string symbol;
        string quoteSymbol;
        uint8 quoteDecimals;
    }

    /// @param count the launchpad's launch count (`tokens` given: their number)
    /// @param next the index after the last row read: `< count` when the call stopped early (gas)
    /// @param supply the launchpad's token supply S (C20)
    /// @param feeBps the launchpad's curve fee τ in bps
    struct Page {
        uint256 count;
        uint256 next;
        uint256 supply;
        uint16 feeBps;
        Row[] rows;
    }

    /// @notice The answer, as revert data.
    error Answer(Page page);

    /// @notice Gas kept for encoding the answer: a row stops being read when less is left. At the 500
    /// rows a client asks for at most, the encoding's memory costs under 2M gas.
    uint256 internal constant RESERVE = 3_000_000;
    /// @notice Gas given to one label call (`name`, `symbol`, `decimals`), so a token cannot spend the rest.
    uint256 internal constant LABEL_GAS = 200_000;

    /// @notice Reads `pad.tokens(start + i)` for i < `limit` (`tokens` empty), or the given `tokens` from
    /// index `start`, and reverts with {Answer}.
    constructor(Launchpad pad, address[] memory tokens, uint256 start, uint256 limit) {
        revert Answer(read(pad, tokens, start, limit));
    }

    /// @notice The page the constructor answers with (also callable on a deployed copy, for tests).
    function read(Launchpad pad, address[] memory tokens, uint256 start, uint256 limit)
        public
        view
        returns (Page memory page)
    {
        bool listed = tokens.length == 0;
        page.count = listed ? pad.launchCount() : tokens.length;
        page.supply = pad.supply();
        page.feeBps = pad.feeBps();
        uint256 end = start >= page.count ? start : (page.count - start > limit ? start + limit : page.count);
        Row[] memory rows = new Row[](end - start);
        // The quote assets seen so far (a launchpad allows a handful): each one's label is read once.
        address[] memory quotes = new address[](end - start);
        string[] memory quoteSymbols = new string[](end - start);
        uint8[] memory quoteDecimals = new uint8[](end - start);
        uint256 seen;
        uint256 n;
        for (uint256 i = start; i < end && gasleft() > RESERVE; ++i) {
            Row memory r = rows[n];
            r.token = listed ? pad.tokens(i) : tokens[i];
            try pad.launchOf(r.token) returns (Launchpad.Launch memory l) {
                r.launch = l;
            } catch {}
            r.name = _string(r.token, "name()");
            r.symbol = _string(r.token, "symbol()");
            address quote = r.launch.quote;
            if (quote == address(0)) {
                (r.quoteSymbol, r.quoteDecimals) = ("ETH", 18);
            } else {
                uint256 q;
                while (q < seen && quotes[q] != quote) ++q;
                if (q == seen) {
                    (quotes[q], quoteSymbols[q], quoteDecimals[q]) =
                    (quote, _string(quote, "symbol()"), _decimals(quote));
                    ++seen;
                }
                (r.quoteSymbol, r.quoteDecimals) = (quoteSymbols[q], quoteDecimals[q]);
            }
            ++n;
        }
        // Rows not reached are dropped.
        assembly ("memory-safe") {
            mstore(rows, n)
        }
        page.rows = rows;
        page.next = start + n;
    }

    /// @dev A no-argument call answering an ABI `string`; "" on a revert or any other answer.
    function _string(address target, string memory signature) private view returns (string memory) {
        (bool ok, bytes memory ret) = target.staticcall{gas: LABEL_GAS}(abi.encodeWithSignature(signature));
        if (!ok || ret.length < 64) return "";
        (uint256 offset, uint256 len) = abi.decode(ret, (uint256, uint256));
        if (offset != 32 || len > ret.length - 64) return "";
        return abi.decode(ret, (string));
    }

    /// @dev `decimals()`; 18 on a revert or an answer that is not a uint8.
    function _decimals(address target) private view returns (uint8) {
        (bool ok, bytes memory ret) = target.staticcall{gas: LABEL_GAS}(abi.encodeWithSignature("decimals()"));
        if (!ok || ret.length < 32) return 18;
        uint256 d = abi.decode(ret, (uint256));
        return d > type(uint8).max ? 18 : uint8(d);
    }
}
