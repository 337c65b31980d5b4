// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {FeeLanes} from "../src/FeeLanes.sol";
import {Launchpad} from "../src/Launchpad.sol";
import {LaunchpadFixture, TestSwapper} from "./utils/LaunchpadFixture.sol";
import {V4Deployer} from "./utils/V4Deployer.sol";

/// Random curve buys, pool swaps, curve and pool fee collections, creator claims, liquidity sweeps and own-token
/// buybacks (§7) over one ETH launch whose creator fixed a 40 % own-buyback share, with the real FeeLanes.
contract FeeLanesHandler is Test {
    Launchpad public immutable pad;
    FeeLanes public immutable lanes;
    TestSwapper public immutable swapper;
    address public immutable token;
    address public immutable keeper;
    address[3] public actors = [address(0xA11), address(0xB22), address(0xC33)];

    /// Own-buyback quote escrowed (from FeesSplit) and spent, and the tokens burned by buybacks and pool fees.
    uint256 public ownEscrowed;
    uint256 public ownSpent;
    uint256 public burned;
    uint256 public creatorPaid;
    uint256 public creatorEarned;
    uint256 public ownSweeps;

    constructor(Launchpad pad_, FeeLanes lanes_, address token_, address keeper_) {
        pad = pad_;
        lanes = lanes_;
        token = token_;
        keeper = keeper_;
        swapper = new TestSwapper(pad_.poolManager());
        for (uint256 i; i < 3; ++i) {
            vm.deal(actors[i], 100 ether);
        }
    }

    function buy(uint256 who, uint256 x) external {
        address a = actors[who % 3];
        x = bound(x, 1e9, 3 ether);
        if (a.balance < x) return;
        vm.warp(block.timestamp + 20);
        if (pad.launchOf(token).graduated) {
            (PoolKey memory key,) = pad.poolOf(token);
            vm.prank(a);
            swapper.swapExactIn{value: x}(key, true, x);
        } else {
            vm.prank(a);
            pad.buy{value: x}(token, x, 0, block.timestamp);
        }
    }

    function sellInPool(uint256 who, uint256 frac) external {
        if (!pad.launchOf(token).graduated) return;
        address a = actors[who % 3];
        uint256 bal = IERC20(token).balanceOf(a);
        if (bal == 0) return;
        uint256 y = bound(frac, 1, bal);
        (PoolKey memory key,) = pad.poolOf(token);
        vm.startPrank(a);
        IERC20(token).approve(address(swapper), y);
        swapper.swapExactIn(key, false, y);
        vm.stopPrank();
    }

    function collect() external {
        uint256 fee = pad.launchOf(token).feesAccrued;
        if (fee == 0) return;
        ownEscrowed += _ownPart(fee);
        pad.collectFees(token);
    }

    function collectPool() external {
        if (!pad.launchOf(token).graduated) return;
        try pad.collectPoolFees(token) returns (uint256 q, uint256 b) {
            burned += b;
            if (q != 0) ownEscrowed += _ownPart(q);
        } catch {}
    }

    function claim() external {
        try lanes.claimCreator(token) returns (uint256 a) {
            creatorPaid += a;
        } catch {}
    }

    function sweepOwn(uint256 minOut) external {
        uint256 escrow = lanes.ownBuybackEscrow(token);
        minOut = minOut % 2 == 0 ? 0 : bound(minOut, 0, 1e22);
        vm.prank(keeper);
        try lanes.sweepOwnBuyback(token, minOut) returns (uint256 b) {
            ownSpent += escrow;
            burned += b;
            ++ownSweeps;
        } catch {}
    }

    function sweepLiquidity() external {
        vm.prank(keeper);
        try lanes.sweepLiquidity(token, 0) {} catch {}
    }

    /// What FeeLanes will escrow for the buyback out of a fee, and the creator's claimable part, from the preview
    /// (the split the next onCurveFees applies: same block, same score).
    function _ownPart(uint256 fee) internal returns (uint256) {
        FeeLanes.Split memory s = lanes.previewSplit(token, fee);
        creatorEarned += s.toCreator;
        return s.toOwnBuyback;
    }
}

contract FeeLanesInvariantTest is LaunchpadFixture {
    FeeLanesHandler internal handler;
    FeeLanes internal lanes;
    HolderDistributor internal dist;
    address internal token;
    address internal keeperBot = makeAddr("keeper");

    function setUp() public {
        vm.warp(1_700_000_000);
        pm = V4Deployer.deployPoolManager(address(this));
        EpochRegistry reg = new EpochRegistry(address(this), makeAddr("signer"), address(this), 1 ether, 1);
        dist = new HolderDistributor(address(this), address(this));
        lanes = new FeeLanes(
            address(this),
            reg,
            dist,
            FeeLanes.Params({
                fBacked: 0.2e18,
                fUnverified: 0.1e18,
                ceiling: 0.4e18,
                scorerWeight: 0.2e18,
                holderWeight: 0.3e18,
                buybackWeight: 0.1e18,
                lpShare: 0.25e18
            })
        );
        _deployPad(address(lanes));
        lanes.setLaunchpad(pad);
        lanes.setReceivers(makeAddr("scorers"), makeAddr("buyback"), keeperBot);
        token = pad.launch("Own", "OWN", address(0), 0.4e18);
        handler = new FeeLanesHandler(pad, lanes, token, keeperBot);
        targetContract(address(handler));
    }

    /// Nothing stuck, nothing paid twice: FeeLanes holds exactly what its ledgers owe, the own-buyback escrow is
    /// what was escrowed less what was spent, and the creator was paid at most what they earned.
    function invariant_lanesSolvent() public view {
        uint256 owed = lanes.creatorBalance(token) + lanes.liquidityEscrow(token) + lanes.ownBuybackEscrow(token)
            + lanes.scorerPool(token, address(0)) + lanes.buybackPool(address(0));
        assertEq(address(lanes).balance, owed);
        assertEq(lanes.ownBuybackEscrow(token), handler.ownEscrowed() - handler.ownSpent());
        assertEq(handler.creatorPaid() + lanes.creatorBalance(token), handler.creatorEarned());
    }

    /// Every buyback and pool-fee burn leaves the supply for good.
    function invariant_supplyFallsByTheBurns() public view {
        assertEq(IERC20(token).totalSupply(), S - handler.burned());
    }
}
