// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ScorerRegistry, IQualityVerifier, IRootBurnPricer} from "../../src/ScorerRegistry.sol";
import {RootPriceOracle} from "../../src/RootPriceOracle.sol";
import {AggregatorV3Interface} from "../../src/interfaces/AggregatorV3Interface.sol";
import {MockAggregatorV3} from "../../src/mocks/MockAggregatorV3.sol";
import {MockRootTickOracle} from "../../src/mocks/MockRootTickOracle.sol";
import {MockRoot} from "../../src/mocks/MockRoot.sol";
import {TestERC20} from "./TestERC20.sol";

/// Accepts exactly the leaves it was told about (per epoch); the proof itself is ignored. Every epoch counts as
/// proposed after every score unless a proposal time was set; the adjudicator is settable.
contract MockQualityVerifier is IQualityVerifier {
    mapping(bytes32 => bool) public valid;
    mapping(uint64 => uint64) public proposedAtOf;
    address public adjudicator;

    function setLeaf(uint64 epoch, bytes32 leaf) external {
        valid[keccak256(abi.encode(epoch, leaf))] = true;
    }

    function setProposedAt(uint64 epoch, uint64 at) external {
        proposedAtOf[epoch] = at;
    }

    function setAdjudicator(address who) external {
        adjudicator = who;
    }

    function proposedAt(uint64 epoch) external view returns (uint64) {
        uint64 at = proposedAtOf[epoch];
        return at == 0 ? type(uint64).max : at;
    }

    /// Unset: as if first proposed too late to extend any score's window (the deadline is the score's + 30 days).
    function firstProposedAt(uint64 epoch) external view returns (uint64) {
        uint64 at = proposedAtOf[epoch];
        return at == 0 ? type(uint64).max : at;
    }

    function verifyLeaf(uint64 epoch, bytes32 leaf, bytes32[] calldata) external view returns (bool) {
        return valid[keccak256(abi.encode(epoch, leaf))];
    }
}

/// ROOT, its price (the core's pinned C16 example: ~$1.49997 per ROOT), a registry with an ETH pool and a USDG pool.
abstract contract ScorerFixture is Test {
    uint256 internal constant WAD = 1e18;
    uint64 internal constant DAY = 1 days;
    uint256 internal constant T0 = 1_800_000_000;
    /// $100 of ROOT at the pinned price (core `end_to_end_takes_the_lower_window`).
    uint256 internal constant BURN_100 = 66_667_833_396_455_051_977;

    MockRoot internal rootToken;
    MockAggregatorV3 internal feed;
    MockRootTickOracle internal ticks;
    RootPriceOracle internal oracle;
    MockQualityVerifier internal verifier;
    ScorerRegistry internal reg;
    TestERC20 internal usdg;
    address internal owner = makeAddr("owner");
    address internal buyback = makeAddr("buyback");
    address internal constant TOKEN_E = address(0xE0E0); // a launched token paired with ETH
    address internal constant TOKEN_U = address(0xE0E1); // a launched token paired with USDG

    function setUp() public virtual {
        vm.warp(T0 - 30 days);
        rootToken = new MockRoot(address(this));
        feed = new MockAggregatorV3(address(this), 8, "ETH / USD", 3_000e8);
        ticks = new MockRootTickOracle(false);
        ticks.initialize(75_000);
        vm.warp(T0 - 1_800);
        ticks.swapTo(76_013);
        vm.warp(T0);
        feed.setAnswerAt(3_000e8, T0 - 3_600);
        oracle = new RootPriceOracle(ticks, feed, AggregatorV3Interface(address(0)));
        verifier = new MockQualityVerifier();
        usdg = new TestERC20("USDG", "USDG", 6);
        reg = new ScorerRegistry(owner, rootToken, verifier, IRootBurnPricer(address(oracle)), buyback);
        vm.startPrank(owner);
        reg.configurePool(TOKEN_E, address(0));
        reg.configurePool(TOKEN_U, address(usdg));
        vm.stopPrank();
    }

    function _freshFeed() internal {
        feed.setAnswer(3_000e8);
    }

    function _register(address who) internal {
        _registerIn(reg, who, 2_500e18 + 1_000e18);
    }

    /// Registers `who` in `r` after minting it `balance` ROOT (stake, burn and later burns).
    function _registerIn(ScorerRegistry r, address who, uint256 balance) internal {
        _freshFeed();
        rootToken.mint(who, balance);
        vm.startPrank(who);
        rootToken.approve(address(r), type(uint256).max);
        r.register(type(uint256).max);
        vm.stopPrank();
    }

    function _score(address who, address token, string memory thesis) internal returns (uint256 id) {
        _freshFeed();
        rootToken.mint(who, 1_000e18);
        vm.prank(who);
        id = reg.score(token, 50e18, thesis, type(uint256).max);
    }

    /// Tells the mock verifier that score `id`'s grade (q, verdict) is a leaf of `epoch`.
    function _grade(uint64 epoch, uint256 id, uint256 q, uint8 verdict) internal {
        verifier.setLeaf(epoch, reg.qualityLeaf(id, q, verdict, bytes32(0)));
    }

    function _prove(uint256 id, uint256 q, uint8 verdict) internal {
        _grade(7, id, q, verdict);
        reg.prove(id, 7, q, verdict, bytes32(0), new bytes32[](0));
    }

    function _scoreAndProve(address who, address token, uint256 q, uint8 verdict) internal returns (uint256 id) {
        id = _score(who, token, vm.toString(keccak256(abi.encode(who, token, block.timestamp))));
        _prove(id, q, verdict);
    }

    function _fundEth(address token, uint256 amount) internal {
        vm.deal(address(this), amount);
        reg.fund{value: amount}(token, amount);
    }
}
