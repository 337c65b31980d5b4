// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {FeeLanes} from "../src/FeeLanes.sol";
import {Launchpad} from "../src/Launchpad.sol";
import {LaunchLocker} from "../src/LaunchLocker.sol";
import {LaunchpadFixture} from "./utils/LaunchpadFixture.sol";
import {V4Deployer} from "./utils/V4Deployer.sol";
import {MerkleBuilder} from "./utils/MerkleBuilder.sol";
import {Approvals} from "./utils/Approvals.sol";
import {TestERC20} from "./utils/TestERC20.sol";
import {V4PoolDriver} from "./utils/V4PoolDriver.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";

contract FeeLanesTest is LaunchpadFixture {
    using StateLibrary for IPoolManager;

    uint256 internal constant SIGNER_PK = 0xA11CE;
    uint64 internal constant FIRST = 100;

    EpochRegistry internal reg;
    HolderDistributor internal dist;
    FeeLanes internal lanes;
    address internal lanesOwner = makeAddr("lanesOwner");
    address internal creator = makeAddr("creator");
    address internal trader = makeAddr("trader");
    address internal scorers = makeAddr("scorers");
    address internal buybackBot = makeAddr("buyback");
    address internal keeperBot = makeAddr("keeper");
    address internal token;

    function _defaults() internal pure returns (FeeLanes.Params memory) {
        // PLACEHOLDERS (eden-core creator defaults 10 % / 20 % / 40 %; lane weights decided here)
        return FeeLanes.Params({
            fBacked: 0.2e18,
            fUnverified: 0.1e18,
            ceiling: 0.4e18,
            scorerWeight: 0.2e18,
            holderWeight: 0.3e18,
            buybackWeight: 0.1e18,
            lpShare: 0.25e18
        });
    }

    function setUp() public {
        vm.warp(1_700_000_000);
        pm = V4Deployer.deployPoolManager(address(this));
        reg = new EpochRegistry(address(this), vm.addr(SIGNER_PK), address(this), 1 ether, FIRST);
        dist = new HolderDistributor(address(this), address(this));
        lanes = new FeeLanes(lanesOwner, reg, dist, _defaults());
        _deployPad(address(lanes));
        vm.startPrank(lanesOwner);
        lanes.setLaunchpad(pad);
        lanes.setReceivers(scorers, buybackBot, keeperBot);
        vm.stopPrank();
        vm.prank(creator);
        token = pad.launch("Lane", "LANE", address(0), 0);
        vm.deal(trader, 1_000 ether);
        vm.deal(address(this), 100 ether);
    }

    function _trade(uint256 x) internal {
        vm.warp(block.timestamp + 20);
        vm.prank(trader);
        pad.buy{value: x}(token, x, 0, block.timestamp);
    }

    function _finalScore(uint64 epoch, address project, uint256 scoreWad) internal returns (bytes32[] memory proof) {
        bytes32[] memory leaves = new bytes32[](3);
        leaves[0] = reg.scoreLeaf(project, scoreWad);
        leaves[1] = reg.scoreLeaf(address(0xbeef), 1);
        leaves[2] = reg.scoreLeaf(address(0xcafe), 2);
        _finalRoot(epoch, leaves);
        proof = MerkleBuilder.proof(leaves, 0);
    }

    /// Proposes the root of `leaves` for `epoch`, signed, and finalizes it once its window has passed.
    function _finalRoot(uint64 epoch, bytes32[] memory leaves) internal {
        bytes32 root = MerkleBuilder.root(leaves);
        uint64 expiry = uint64(block.timestamp);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(SIGNER_PK, reg.epochRootDigest(epoch, root, 0, address(this), expiry));
        reg.propose{value: 1 ether}(epoch, root, 0, expiry, Approvals.one(vm.addr(SIGNER_PK), abi.encodePacked(r, s, v)));
        vm.warp(block.timestamp + 72 hours);
        reg.finalize(epoch);
    }

    // ---------------------------------------------------------------- configuration

    /// #40: the scorer registry configures a launch's reward pool from this: a launch and its quote asset, read from
    /// the launchpad; any other address is not a launch; before the launchpad is linked, nothing is.
    function test_launchQuote_readsTheLaunchpad() public {
        (bool launched, address quote) = lanes.launchQuote(token);
        assertTrue(launched);
        assertEq(quote, address(0));
        TestERC20 usd = new TestERC20("USD", "USD", 6);
        vm.prank(padOwner);
        pad.setQuoteAsset(address(usd), 3_125e6);
        vm.prank(creator);
        address t = pad.launch("S", "S", address(usd), 0);
        (launched, quote) = lanes.launchQuote(t);
        assertTrue(launched);
        assertEq(quote, address(usd));
        (launched, quote) = lanes.launchQuote(address(usd));
        assertFalse(launched);
        FeeLanes fresh = new FeeLanes(lanesOwner, reg, dist, _defaults());
        (launched, quote) = fresh.launchQuote(token);
        assertFalse(launched);
        assertEq(quote, address(0));
    }

    function test_params_validation() public {
        FeeLanes.Params memory p = _defaults();
        vm.startPrank(lanesOwner);
        p.ceiling = 1.1e18;
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidParams.selector, "ceiling"));
        lanes.setParams(p);
        p = _defaults();
        p.fBacked = 0.5e18;
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidParams.selector, "fBacked"));
        lanes.setParams(p);
        p = _defaults();
        p.fUnverified = 0.5e18;
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidParams.selector, "fUnverified"));
        lanes.setParams(p);
        p = _defaults();
        p.lpShare = 1e18 + 1;
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidParams.selector, "lpShare"));
        lanes.setParams(p);
        p = _defaults();
        p.buybackWeight += 1;
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidParams.selector, "weights"));
        lanes.setParams(p);
        p = _defaults();
        p.ceiling = 1e18;
        p.scorerWeight = 0;
        p.holderWeight = 0;
        p.buybackWeight = 0;
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidParams.selector, "weights"));
        lanes.setParams(p);
        lanes.setParams(_defaults());
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        lanes.setParams(_defaults());
    }

    function test_setLaunchpad_once() public {
        vm.startPrank(lanesOwner);
        vm.expectRevert(FeeLanes.LaunchpadAlreadySet.selector);
        lanes.setLaunchpad(pad);
        vm.stopPrank();
        FeeLanes fresh = new FeeLanes(lanesOwner, reg, dist, _defaults());
        vm.prank(lanesOwner);
        vm.expectRevert(FeeLanes.ZeroAddress.selector);
        fresh.setLaunchpad(Launchpad(payable(address(0))));
        vm.expectRevert(FeeLanes.ZeroAddress.selector);
        new FeeLanes(lanesOwner, EpochRegistry(address(0)), dist, _defaults());
    }

    function test_adminSetters_onlyOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        lanes.setReceivers(address(1), address(2), address(3));
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        lanes.setLaunchpad(pad);
    }

    /// §4.4: only the registry's adjudicator sets or revokes Verified: not the lanes' owner, not the signer, not
    /// anyone; rotating the adjudicator (the registry owner's, behind the timelock) moves the power at once.
    function test_verified_onlyTheAdjudicator() public {
        address signer = vm.addr(SIGNER_PK);
        for (uint256 i; i < 3; ++i) {
            address who = i == 0 ? lanesOwner : i == 1 ? signer : address(0xBAD);
            vm.prank(who);
            vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotAdjudicator.selector, who));
            lanes.setVerified(token, true);
        }
        assertEq(reg.adjudicator(), address(this));
        vm.expectEmit(address(lanes));
        emit FeeLanes.VerifiedSet(token, true);
        lanes.setVerified(token, true);
        assertTrue(lanes.verified(token));
        vm.expectRevert(FeeLanes.ZeroAddress.selector);
        lanes.setVerified(address(0), true);
        address next = address(0xAD1);
        reg.setAdjudicator(next);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotAdjudicator.selector, address(this)));
        lanes.setVerified(token, false);
        vm.prank(next);
        lanes.setVerified(token, false);
        assertFalse(lanes.verified(token));
    }

    // ---------------------------------------------------------------- creator ramp (eden-core creator vectors)

    function test_creatorShare_ramp() public {
        address p = address(0x1234);
        assertEq(lanes.creatorShare(p), 0.1e18); // S = 0, unverified
        lanes.setVerified(p, true); // this test is the registry's adjudicator
        assertEq(lanes.creatorShare(p), 0.2e18); // Verified floor
        bytes32[] memory proof = _finalScore(FIRST, p, 50e18);
        lanes.updateScore(p, FIRST, 50e18, proof);
        assertEq(lanes.creatorShare(p), 0.3e18);
        lanes.setVerified(p, false);
        assertEq(lanes.creatorShare(p), 0.25e18);
        proof = _finalScore(FIRST + 1, p, 100e18);
        lanes.updateScore(p, FIRST + 1, 100e18, proof);
        assertEq(lanes.creatorShare(p), 0.4e18);
        // moves both ways
        proof = _finalScore(FIRST + 2, p, 1);
        lanes.updateScore(p, FIRST + 2, 1, proof);
        assertEq(lanes.creatorShare(p), 0.1e18); // 1e-18 points rounds the ramp down to 0
    }

    function test_split_matchesCoreVector() public {
        address p = address(0x1234);
        bytes32[] memory proof = _finalScore(FIRST, p, 50e18);
        lanes.updateScore(p, FIRST, 50e18, proof);
        FeeLanes.Split memory s = lanes.previewSplit(p, 1_000_001);
        assertEq(s.creatorShare, 0.25e18);
        assertEq(s.creatorAmount, 250_000);
        assertEq(s.creatorAmount + s.unearned, 400_000);
        assertEq(s.toLiquidity, 62_500);
        assertEq(s.toCreator, 187_500);
        // the other lanes share F − creator = 750,001 in 2 : 3 : 1
        assertEq(s.toScorers, 250_000);
        assertEq(s.toHolders, 375_000);
        assertEq(s.toBuyback, 125_001);
    }

    function test_updateScore_reverts() public {
        address p = address(0x1234);
        bytes32[] memory proof = _finalScore(FIRST, p, 50e18);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidScoreProof.selector, p, FIRST, 51e18));
        lanes.updateScore(p, FIRST, 51e18, proof);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.ScoreOutOfRange.selector, 100e18 + 1));
        lanes.updateScore(p, FIRST, 100e18 + 1, proof);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotLatestFinal.selector, FIRST + 1, FIRST));
        lanes.updateScore(p, FIRST + 1, 50e18, proof);
        lanes.updateScore(p, FIRST, 50e18, proof);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.StaleScore.selector, FIRST, FIRST));
        lanes.updateScore(p, FIRST, 50e18, proof);
    }

    /// C27: a project whose theses moved its score down has one score leaf (the published score) and a
    /// systematic leaf with its higher systematic score. The creator cannot record the higher one: the systematic
    /// leaf's proof does not verify as a score leaf (domain tag), under either value.
    function test_c27_onlyThePublishedScoreIsRecordable() public {
        uint256 published = 40e18;
        uint256 systematic = 60e18;
        bytes32[] memory leaves = new bytes32[](3);
        leaves[0] = reg.scoreLeaf(token, published);
        leaves[1] = reg.systematicLeaf(token, systematic);
        leaves[2] = reg.scoreLeaf(address(0xbeef), 1);
        _finalRoot(FIRST, leaves);
        bytes32[] memory sysProof = MerkleBuilder.proof(leaves, 1);
        assertTrue(reg.verifySystematic(FIRST, token, systematic, sysProof));
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidScoreProof.selector, token, FIRST, systematic));
        lanes.updateScore(token, FIRST, systematic, sysProof);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.InvalidScoreProof.selector, token, FIRST, published));
        lanes.updateScore(token, FIRST, published, sysProof);
        lanes.updateScore(token, FIRST, published, MerkleBuilder.proof(leaves, 0));
        assertEq(lanes.currentScore(token), published);
    }

    /// Review finding 8: a creator kept a favourable older score by never recording the newer, lower one (and
    /// epoch 0 could be recorded twice). Only the latest final epoch's score counts now, whoever records it.
    function test_review8_anOlderFavourableScoreStopsCountingOnceANewerEpochIsFinal() public {
        bytes32[] memory p90 = _finalScore(FIRST, token, 90e18);
        lanes.updateScore(token, FIRST, 90e18, p90);
        uint256 at90 = lanes.creatorShare(token);
        assertEq(at90, 0.1e18 + (0.3e18 * 90) / 100);
        // The next epoch gives 10 points; the creator does not record it.
        bytes32[] memory p10 = _finalScore(FIRST + 1, token, 10e18);
        assertEq(lanes.currentScore(token), 0);
        assertEq(lanes.creatorShare(token), 0.1e18); // the floor, never the stale 90
        // Re-recording the old one is refused; anyone records the latest.
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotLatestFinal.selector, FIRST, FIRST + 1));
        lanes.updateScore(token, FIRST, 90e18, p90);
        vm.prank(makeAddr("anyone"));
        lanes.updateScore(token, FIRST + 1, 10e18, p10);
        assertEq(lanes.creatorShare(token), 0.1e18 + (0.3e18 * 10) / 100);
    }

    function test_review8_epochZeroIsRecordedOnce() public {
        EpochRegistry reg0 = new EpochRegistry(address(this), vm.addr(SIGNER_PK), address(this), 1 ether, 0);
        FeeLanes lanes0 = new FeeLanes(lanesOwner, reg0, dist, _defaults());
        EpochRegistry saved = reg;
        reg = reg0;
        bytes32[] memory proof = _finalScore(0, token, 50e18);
        reg = saved;
        lanes0.updateScore(token, 0, 50e18, proof);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.StaleScore.selector, uint64(0), uint64(0)));
        lanes0.updateScore(token, 0, 50e18, proof);
        assertEq(lanes0.currentScore(token), 50e18);
    }

    // ---------------------------------------------------------------- fees in and out

    function test_onCurveFees_onlyLaunchpadAndExactValue() public {
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotLaunchpad.selector, address(this)));
        lanes.onCurveFees{value: 1}(token, address(0), 1);
        vm.deal(address(pad), 10);
        vm.prank(address(pad));
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.WrongValue.selector, 1, 2));
        lanes.onCurveFees{value: 1}(token, address(0), 2);
    }

    function test_collect_splitsIntoLanes_eth() public {
        _trade(1 ether); // fee 0.01 ETH
        FeeLanes.Split memory s = lanes.previewSplit(token, 0.01 ether);
        pad.collectFees(token);
        assertEq(s.toScorers + s.toHolders + s.toBuyback + s.toCreator + s.toLiquidity, 0.01 ether);
        assertEq(lanes.creatorBalance(token), s.toCreator);
        assertEq(lanes.liquidityEscrow(token), s.toLiquidity);
        assertEq(lanes.scorerPool(token, address(0)), s.toScorers);
        assertEq(lanes.buybackPool(address(0)), s.toBuyback);
        assertEq(dist.pot(token, address(0)), s.toHolders);
        assertEq(address(dist).balance, s.toHolders);
        assertEq(address(lanes).balance, 0.01 ether - s.toHolders);

        uint256 before = creator.balance;
        vm.prank(trader); // anyone may trigger, the creator is paid
        lanes.claimCreator(token);
        assertEq(creator.balance, before + s.toCreator);
        vm.expectRevert(FeeLanes.NothingToPay.selector);
        lanes.claimCreator(token);

        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotAuthorized.selector, address(this)));
        lanes.pullScorerPool(token, address(0));
        vm.prank(scorers);
        lanes.pullScorerPool(token, address(0));
        assertEq(scorers.balance, s.toScorers);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotAuthorized.selector, address(this)));
        lanes.pullBuyback(address(0));
        vm.prank(buybackBot);
        lanes.pullBuyback(address(0));
        assertEq(buybackBot.balance, s.toBuyback);
        vm.prank(buybackBot);
        vm.expectRevert(FeeLanes.NothingToPay.selector);
        lanes.pullBuyback(address(0));
    }

    function test_collect_splitsIntoLanes_stablecoin() public {
        TestERC20 usd = new TestERC20("USD", "USD", 6);
        vm.prank(padOwner);
        pad.setQuoteAsset(address(usd), 3_125e6);
        vm.prank(creator);
        address t = pad.launch("S", "S", address(usd), 0);
        usd.mint(trader, 10_000e6);
        vm.warp(block.timestamp + 20);
        vm.startPrank(trader);
        usd.approve(address(pad), type(uint256).max);
        pad.buy(t, 1_000e6, 0, block.timestamp);
        vm.stopPrank();
        FeeLanes.Split memory s = lanes.previewSplit(t, 10e6);
        pad.collectFees(t);
        assertEq(dist.pot(t, address(usd)), s.toHolders);
        assertEq(usd.balanceOf(address(dist)), s.toHolders);
        lanes.claimCreator(t);
        assertEq(usd.balanceOf(creator), s.toCreator);
        assertEq(usd.balanceOf(address(lanes)), s.toLiquidity + s.toScorers + s.toBuyback);
    }

    // ---------------------------------------------------------------- liquidity growth (§9.3)

    function test_sweepLiquidity_growsLockedPosition() public {
        _trade(1 ether);
        pad.collectFees(token);
        vm.prank(keeperBot);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NotGraduated.selector, token));
        lanes.sweepLiquidity(token, 0);

        _trade(20 ether); // graduates
        pad.collectFees(token);
        assertGt(lanes.liquidityEscrow(token), 0);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotAuthorized.selector, address(this)));
        lanes.sweepLiquidity(token, 0);
        vm.prank(keeperBot);
        vm.expectPartialRevert(LaunchLocker.GrowthBelowMin.selector); // sandwich guard
        lanes.sweepLiquidity(token, type(uint256).max);
    }

    function test_sweepLiquidity_addsBothLegs() public {
        _trade(20 ether);
        pad.collectFees(token);
        (, PoolId id) = pad.poolOf(token);
        uint128 before = pm.getLiquidity(id);
        uint256 lockerTokens = IERC20(token).balanceOf(address(pad.locker()));
        vm.prank(keeperBot);
        uint128 added = lanes.sweepLiquidity(token, 1);
        assertGt(added, 0);
        assertEq(pm.getLiquidity(id), before + added);
        assertEq(lanes.liquidityEscrow(token), 0);
        assertGe(IERC20(token).balanceOf(address(pad.locker())), lockerTokens); // the locked 4 % is untouched
        vm.prank(keeperBot);
        vm.expectRevert(FeeLanes.NothingToPay.selector);
        lanes.sweepLiquidity(token, 0);
    }

    function test_growLiquidity_onlyFeeSink() public {
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NotFeeSink.selector, address(this)));
        pad.growLiquidity(token, 1, 0);
    }


    // ---------------------------------------------------------------- the creator's own-token buyback (§7)

    /// A launch whose creator fixed `share` of their payout for buying back their own token.
    function _launchWithBuyback(uint64 share) internal returns (address t) {
        vm.prank(creator);
        t = pad.launch("Own", "OWN", address(0), share);
    }

    function _tradeOn(address t, uint256 x) internal {
        vm.warp(block.timestamp + 20);
        vm.prank(trader);
        pad.buy{value: x}(t, x, 0, block.timestamp);
    }

    function test_launch_ownBuybackShare_fixedAndBounded() public {
        uint64 max = pad.MAX_OWN_BUYBACK_SHARE();
        vm.prank(creator);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.OwnBuybackShareTooHigh.selector, max + 1, max));
        pad.launch("Too", "TOO", address(0), max + 1);
        address t = _launchWithBuyback(max);
        assertEq(pad.ownBuybackShareOf(t), max);
        assertEq(lanes.ownBuybackShare(t), max);
        assertEq(pad.ownBuybackShareOf(token), 0);
        assertEq(lanes.ownBuybackShare(address(0xbeef)), 0, "not a launch: no buyback");
    }

    /// The share is of the creator's payout after φ_LP: 0.01 ETH fee, creator(0) = 10 %, φ_LP 25 %, share 30 %.
    function test_split_ownBuyback_ofThePayoutAfterLiquidity() public {
        address t = _launchWithBuyback(0.3e18);
        FeeLanes.Split memory s = lanes.previewSplit(t, 0.01 ether);
        assertEq(s.creatorAmount, 0.001 ether);
        assertEq(s.toLiquidity, 0.00025 ether);
        assertEq(s.toOwnBuyback, 0.000225 ether);
        assertEq(s.toCreator, 0.000525 ether);
        assertEq(s.toCreator + s.toLiquidity + s.toOwnBuyback, s.creatorAmount);
        _tradeOn(t, 1 ether);
        pad.collectFees(t);
        assertEq(lanes.ownBuybackEscrow(t), 0.000225 ether);
        assertEq(lanes.creatorBalance(t), 0.000525 ether);
        assertEq(address(lanes).balance, 0.01 ether - s.toHolders, "everything but the holders' pot stays here");
        // A launch without a share escrows nothing for it.
        _trade(1 ether);
        pad.collectFees(token);
        assertEq(lanes.ownBuybackEscrow(token), 0);
    }

    function test_sweepOwnBuyback_rules() public {
        address t = _launchWithBuyback(0.5e18);
        vm.prank(keeperBot);
        vm.expectRevert(FeeLanes.NothingToPay.selector);
        lanes.sweepOwnBuyback(t, 0);
        _tradeOn(t, 1 ether);
        pad.collectFees(t);
        vm.prank(keeperBot);
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NotGraduated.selector, t));
        lanes.sweepOwnBuyback(t, 0);
        vm.expectRevert(abi.encodeWithSelector(FeeLanes.NotAuthorized.selector, address(this)));
        lanes.sweepOwnBuyback(t, 0);
        // Only the fee sink drives the launchpad's buyback, and only the launchpad the locker's.
        vm.expectRevert(abi.encodeWithSelector(Launchpad.NotFeeSink.selector, address(this)));
        pad.buyBackOwnToken(t, 1, 0);
        PoolKey memory key = pad.poolKeyOf(t);
        LaunchLocker locker = pad.locker();
        vm.expectRevert(abi.encodeWithSelector(LaunchLocker.OnlyLaunchpad.selector, address(this)));
        locker.buyAndBurn(key, true, 1, 0);
    }

    /// After graduation the escrow (earned before and after) buys the token in its pool and every token bought is
    /// burned: supply falls by exactly that, the pool's liquidity is untouched, the escrow is paid once.
    function test_sweepOwnBuyback_buysAndBurns() public {
        address t = _launchWithBuyback(0.5e18);
        _tradeOn(t, 1 ether);
        pad.collectFees(t);
        uint256 before = lanes.ownBuybackEscrow(t);
        _tradeOn(t, 20 ether); // graduates
        pad.collectFees(t);
        uint256 escrow = lanes.ownBuybackEscrow(t);
        assertGt(escrow, before);
        (PoolKey memory key, PoolId id) = pad.poolOf(t);
        uint128 liquidity = pm.getLiquidity(id);
        uint256 supply = IERC20(t).totalSupply();
        uint256 lockerTokens = IERC20(t).balanceOf(address(pad.locker()));
        uint256 lanesEth = address(lanes).balance;
        uint256 lockerEth = address(pad.locker()).balance;
        vm.expectEmit(true, false, false, false, address(lanes));
        emit FeeLanes.OwnBuybackSwept(t, escrow, 0);
        vm.prank(keeperBot);
        uint256 burned = lanes.sweepOwnBuyback(t, 1);
        assertGt(burned, 0);
        assertEq(IERC20(t).totalSupply(), supply - burned, "supply falls by what was bought");
        assertEq(IERC20(t).balanceOf(address(pad.locker())), lockerTokens, "the locked 4 % is untouched");
        assertEq(pm.getLiquidity(id), liquidity, "liquidity never moves");
        assertEq(address(lanes).balance, lanesEth - escrow);
        assertEq(lanes.ownBuybackEscrow(t), 0);
        assertEq(address(pad.locker()).balance, lockerEth, "all the quote was spent in the pool");
        assertTrue(key.currency0.isAddressZero());
        vm.prank(keeperBot);
        vm.expectRevert(FeeLanes.NothingToPay.selector);
        lanes.sweepOwnBuyback(t, 0);
    }

    /// Attack: a searcher sees the keeper's sweep, buys first to raise the price, and wants to sell into the
    /// buyback. The keeper's minimum (the output before the attack, less its slippage) makes the sweep revert; the
    /// escrow stays for a later sweep, nothing is lost.
    function test_sweepOwnBuyback_sandwichReverts() public {
        address t = _launchWithBuyback(0.5e18);
        _tradeOn(t, 20 ether);
        pad.collectFees(t);
        uint256 escrow = lanes.ownBuybackEscrow(t);
        uint256 snap = vm.snapshotState();
        vm.prank(keeperBot);
        uint256 fair = lanes.sweepOwnBuyback(t, 0);
        vm.revertToState(snap);
        PoolKey memory key = pad.poolKeyOf(t);
        V4PoolDriver searcher = new V4PoolDriver(pm);
        vm.deal(address(searcher), 5 ether);
        searcher.swapExactIn(key, true, 5 ether); // front-run: ETH -> token
        vm.prank(keeperBot);
        vm.expectPartialRevert(LaunchLocker.BuybackBelowMin.selector);
        lanes.sweepOwnBuyback(t, fair * 99 / 100);
        assertEq(lanes.ownBuybackEscrow(t), escrow, "the escrow waits");
    }

    function testFuzz_split_ownBuyback_addsUp(uint256 fee, uint64 share, uint256 score) public {
        share = uint64(bound(share, 0, pad.MAX_OWN_BUYBACK_SHARE()));
        fee = bound(fee, 0, 1e40);
        score = bound(score, 0, 100e18);
        address t = _launchWithBuyback(share);
        if (score > 0) {
            bytes32[] memory proof = _finalScore(FIRST, t, score);
            lanes.updateScore(t, FIRST, score, proof);
        }
        FeeLanes.Split memory s = lanes.previewSplit(t, fee);
        assertEq(s.toCreator + s.toLiquidity + s.toOwnBuyback + s.toScorers + s.toHolders + s.toBuyback, fee);
        assertEq(s.toOwnBuyback, (s.creatorAmount - s.toLiquidity) * share / 1e18);
        assertGe(s.toCreator, s.toOwnBuyback, "at least half the payout is paid out");
    }

    // ---------------------------------------------------------------- fuzz

    function testFuzz_split_addsUpExactly(uint256 fee, uint256 score, bool isVerified) public {
        fee = bound(fee, 0, 1e40);
        score = bound(score, 0, 100e18);
        address p = address(0x1234);
        if (score > 0) {
            bytes32[] memory proof = _finalScore(FIRST, p, score);
            lanes.updateScore(p, FIRST, score, proof);
        }
        lanes.setVerified(p, isVerified);
        FeeLanes.Split memory s = lanes.previewSplit(p, fee);
        assertEq(s.toCreator + s.toLiquidity + s.toOwnBuyback + s.toScorers + s.toHolders + s.toBuyback, fee);
        assertLe(s.creatorShare, 0.4e18);
        assertGe(s.creatorShare, isVerified ? 0.2e18 : 0.1e18);
        assertEq(s.creatorAmount + s.unearned, fee * 0.4e18 / 1e18);
    }
}
