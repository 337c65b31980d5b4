// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Launchpad} from "../src/Launchpad.sol";
import {LaunchLens} from "../src/lens/LaunchLens.sol";
import {LaunchpadFixture} from "./utils/LaunchpadFixture.sol";
import {TestERC20} from "./utils/TestERC20.sol";

/// Foundry's `cool` cheatcode (forge ≥ 1.0; not in the forge-std v4-core pins): an account and its
/// storage read as cold again, as on a fresh `eth_call`.
interface VmCool {
    function cool(address target) external;
}

/// Runs creation code and hands back what it reverted with (a deployless reader's answer).
contract CreationRunner {
    function run(bytes memory code) external returns (bytes memory data) {
        address created;
        assembly {
            created := create(0, add(code, 32), mload(code))
        }
        require(created == address(0), "the lens returned instead of reverting");
        uint256 size;
        assembly {
            size := returndatasize()
        }
        data = new bytes(size);
        assembly {
            returndatacopy(add(data, 32), 0, size)
        }
    }
}

/// A quote asset that answers `symbol()` and `decimals()` with whatever it was told to, or burns its gas.
contract HostileLabel {
    bytes internal answer;
    bool internal burn;

    function set(bytes memory answer_, bool burn_) external {
        (answer, burn) = (answer_, burn_);
    }

    fallback(bytes calldata) external returns (bytes memory) {
        if (burn) {
            while (true) {}
        }
        bytes memory a = answer;
        assembly {
            return(add(a, 32), mload(a))
        }
    }
}

/// The deployless launch reader, run the way a client runs it: its creation code executed (here with
/// `new`), its answer taken from the revert data. Every row is checked against the launchpad's and the
/// tokens' own views.
contract LaunchLensTest is LaunchpadFixture {
    TestERC20 internal usd;
    HostileLabel internal hostile;
    CreationRunner internal runner = new CreationRunner();
    /// Gas the last lens run used (the answer's decoding here not included).
    uint256 internal lastGas;
    address[] internal launched;
    address internal alice = makeAddr("alice");

    function setUp() public {
        vm.warp(1_700_000_000);
        _deployLaunchpad();
        usd = new TestERC20("USD Gold", "USDG", 6);
        hostile = new HostileLabel();
        vm.startPrank(padOwner);
        pad.setQuoteAsset(address(usd), 1_250e6);
        pad.setQuoteAsset(address(hostile), 1e18);
        vm.stopPrank();
        vm.deal(alice, 100 ether);
        vm.startPrank(alice);
        launched.push(pad.launch("Eden One", "ONE", address(0), 0));
        launched.push(pad.launch("Eden Two", "TWO", address(usd), 0));
        launched.push(pad.launch("Eden Three", "THREE", address(0), 0));
        launched.push(pad.launch("Eden Four", "FOUR", address(usd), 0));
        launched.push(pad.launch("Eden Five", "FIVE", address(hostile), 0));
        pad.buy{value: 1 ether}(launched[2], 1 ether, 0, block.timestamp);
        vm.stopPrank();
    }

    /// Runs the lens's creation code with its arguments, as a client's `eth_call` without `to` does, under
    /// a gas cap, and decodes its {LaunchLens.Answer} with the test's own gas.
    function lens(address[] memory tokens, uint256 start, uint256 limit, uint256 cap)
        internal
        returns (LaunchLens.Page memory)
    {
        bytes memory code = abi.encodePacked(type(LaunchLens).creationCode, abi.encode(pad, tokens, start, limit));
        uint256 before = gasleft();
        bytes memory data = runner.run{gas: cap}(code);
        lastGas = before - gasleft();
        require(bytes4(data) == LaunchLens.Answer.selector, "not an Answer");
        assembly {
            let len := mload(data)
            data := add(data, 4)
            mstore(data, sub(len, 4))
        }
        return abi.decode(data, (LaunchLens.Page));
    }

    function lens(address[] memory tokens, uint256 start, uint256 limit) internal returns (LaunchLens.Page memory) {
        return lens(tokens, start, limit, 30_000_000);
    }

    /// Every account and slot cold, as in a node's fresh `eth_call`.
    function _coolAll() internal {
        VmCool(address(vm)).cool(address(pad));
        VmCool(address(vm)).cool(address(usd));
        for (uint256 i; i < pad.launchCount(); ++i) {
            VmCool(address(vm)).cool(pad.tokens(i));
        }
        VmCool(address(vm)).cool(address(pad));
    }

    function _checkRow(LaunchLens.Row memory r, address token) internal view {
        assertEq(r.token, token);
        Launchpad.Launch memory l = pad.launchOf(token);
        assertEq(abi.encode(r.launch), abi.encode(l), "record");
        assertEq(r.name, TestERC20(token).name());
        assertEq(r.symbol, TestERC20(token).symbol());
        if (l.quote == address(0)) {
            assertEq(r.quoteSymbol, "ETH");
            assertEq(r.quoteDecimals, 18);
        } else if (l.quote == address(usd)) {
            assertEq(r.quoteSymbol, "USDG");
            assertEq(r.quoteDecimals, 6);
        }
    }

    function test_everyLaunchWithItsLabels() public {
        LaunchLens.Page memory p = lens(new address[](0), 0, 500);
        assertEq(p.count, 5);
        assertEq(p.next, 5);
        assertEq(p.supply, pad.supply());
        assertEq(p.feeBps, pad.feeBps());
        assertEq(p.rows.length, 5);
        for (uint256 i; i < 5; ++i) {
            _checkRow(p.rows[i], launched[i]);
        }
        // The buy moved the third launch's curve; the lens reads the state now.
        assertGt(p.rows[2].launch.quoteRaised, 0);
    }

    function test_aPageOfTheList() public {
        LaunchLens.Page memory p = lens(new address[](0), 1, 2);
        assertEq(p.count, 5);
        assertEq(p.next, 3);
        assertEq(p.rows.length, 2);
        _checkRow(p.rows[0], launched[1]);
        _checkRow(p.rows[1], launched[2]);
        // Past the end: no rows.
        p = lens(new address[](0), 7, 10);
        assertEq(p.rows.length, 0);
        assertEq(p.next, 7);
    }

    function test_givenTokens_unknownOnesHaveNoRecord() public {
        address[] memory t = new address[](3);
        (t[0], t[1], t[2]) = (launched[3], address(usd), makeAddr("nobody"));
        LaunchLens.Page memory p = lens(t, 0, 10);
        assertEq(p.count, 3);
        assertEq(p.next, 3);
        _checkRow(p.rows[0], launched[3]);
        // A token the launchpad never launched: an empty record, its own labels still read.
        assertEq(p.rows[1].launch.launchTime, 0);
        assertEq(p.rows[1].symbol, "USDG");
        assertEq(p.rows[2].launch.launchTime, 0);
        assertEq(p.rows[2].name, "");
    }

    /// Attack: a quote asset answering its labels with malformed data, a lying length, or by burning
    /// all the gas it is given, to make the whole list unreadable. Each answer is read as "no label".
    function test_hostileLabelsAreEmpty() public {
        bytes[4] memory answers = [
            bytes(""),
            abi.encode(uint256(64), uint256(3), "abc"), // offset not 32
            abi.encode(uint256(32), uint256(1e6)), // length past the data
            abi.encode(uint256(1000)) // decimals that are not a uint8
        ];
        // `decimals()` reads the first word: 64 and 32 are uint8 values, 1000 is not.
        uint8[4] memory decimals = [18, 64, 32, 18];
        for (uint256 k; k < answers.length; ++k) {
            hostile.set(answers[k], false);
            LaunchLens.Page memory p = lens(new address[](0), 0, 500);
            assertEq(p.rows[4].quoteSymbol, "");
            assertEq(p.rows[4].quoteDecimals, decimals[k]);
            _checkRow(p.rows[3], launched[3]);
        }
        hostile.set("", true);
        LaunchLens.Page memory q = lens(new address[](0), 0, 500);
        assertEq(q.next, 5);
        assertEq(q.rows[4].quoteSymbol, "");
        assertEq(q.rows[4].name, "Eden Five");
    }

    /// The client asks for 500 rows a call: read cold, they fit the 30M gas most nodes allow an `eth_call`.
    function test_fiveHundredLaunchesFitOneCall() public {
        vm.pauseGasMetering();
        vm.startPrank(alice);
        for (uint256 i = 5; i < 500; ++i) {
            pad.launch("Eden Many", "MANY", i % 2 == 0 ? address(0) : address(usd), 0);
        }
        vm.stopPrank();
        _coolAll();
        vm.resumeGasMetering();
        LaunchLens.Page memory p = lens(new address[](0), 0, 500, 30_000_000);
        emit log_named_uint("gas for 500 rows, cold", lastGas);
        assertEq(p.next, 500);
        assertEq(p.rows.length, 500);
        _checkRow(p.rows[499], pad.tokens(499));
        // Under a 12M cap, the rows read so far still leave the gas to answer: hundreds of them.
        _coolAll();
        p = lens(new address[](0), 0, 500, 12_000_000);
        emit log_named_uint("rows under a 12M cap", p.next);
        assertGt(p.next, 200);
        assertLt(p.next, 500);
        assertEq(p.rows.length, p.next);
        _checkRow(p.rows[p.next - 1], pad.tokens(p.next - 1));
    }

    /// Under a node's gas cap the lens stops early and says where: the client asks again from `next`.
    function test_stopsEarlyUnderAGasCap() public {
        LaunchLens.Page memory p = lens(new address[](0), 0, 500, 3_150_000);
        assertEq(p.count, 5);
        assertGt(p.next, 0);
        assertLt(p.next, 5);
        assertEq(p.rows.length, p.next);
        for (uint256 i; i < p.rows.length; ++i) {
            _checkRow(p.rows[i], launched[i]);
        }
        LaunchLens.Page memory rest = lens(new address[](0), p.next, 500);
        assertEq(rest.next, 5);
        assertEq(p.rows.length + rest.rows.length, 5);
    }
}
