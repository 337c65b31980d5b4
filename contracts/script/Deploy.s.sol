// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Script} from "forge-std/Script.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {EpochRegistry} from "../src/EpochRegistry.sol";
import {HolderDistributor} from "../src/HolderDistributor.sol";
import {FeeLanes} from "../src/FeeLanes.sol";
import {Launchpad} from "../src/Launchpad.sol";
import {SwapRouter} from "../src/SwapRouter.sol";
import {SourceKeyRegistry, ILaunchCreators} from "../src/SourceKeyRegistry.sol";
import {TestERC20} from "../test/utils/TestERC20.sol";
import {LockerSalt} from "./LockerSalt.sol";
import {Governance} from "./Governance.sol";

/// @notice Deploys the Eden protocol contracts on a local chain (anvil): Uniswap v4 PoolManager from the npm
/// bytecode, EpochRegistry, HolderDistributor, FeeLanes, Launchpad (with its LaunchLocker hook) and a
/// mintable 6-decimal test stablecoin allowed as a quote asset. Writes the addresses to
/// `../.eden/deploy-<chainId>.json` (scripts/deploy-local.sh merges it into `.eden/addresses.json`).
///
/// Environment (all optional): DEPLOYER_PRIVATE_KEY (default anvil account 0), EDEN_SIGNER (root signer,
/// default the deployer), EDEN_ADJUDICATOR (default anvil account 9: never the signer), EDEN_BOND_WEI (default
/// 0.01 ETH), EDEN_FIRST_EPOCH (default today's day number, unix time / 86400), EDEN_GOVERNOR (the timelock's
/// proposer, default the deployer).
/// Governance (`Governance`): a 48 h `TimelockController` is deployed and the handover of every contract here to it
/// is started (pending owner, acceptance batch scheduled); anyone completes it 48 h later.
/// Every value below marked PLACEHOLDER is configuration, not a protocol fact.
contract Deploy is Script {
    uint256 internal constant ANVIL_KEY_0 = 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80;
    address internal constant ANVIL_ACCOUNT_9 = 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720;
    string internal constant POOL_MANAGER_ARTIFACT =
        "../node_modules/@uniswap/v4-core/out/PoolManager.sol/PoolManager.json";

    uint256 internal constant SUPPLY = 1_000_000_000e18; // PLACEHOLDER S (C19)
    uint16 internal constant FEE_BPS = 100; // PLACEHOLDER τ = 1 % (C19)
    uint256 internal constant ETH_VIRTUAL_QUOTE = 1.25 ether; // Φ (C19, pinned)
    uint256 internal constant STABLE_VIRTUAL_QUOTE_WHOLE = 3_125; // Φ in whole stablecoin units (C19, pinned)
    uint24 internal constant POOL_FEE = 3_000; // PLACEHOLDER v4 LP fee (0.3 %)
    int24 internal constant TICK_SPACING = 60; // PLACEHOLDER (eden-core DEFAULT_TICK_SPACING)

    struct Deployed {
        address poolManager;
        address registry;
        address distributor;
        address feeLanes;
        address launchpad;
        address locker;
        address stablecoin;
        address timelock;
        address swapRouter; // E1: ownerless, nothing to hand over
        address sourceKeyRegistry; // C21: ownerless
    }

    function placeholderLanes() internal pure returns (FeeLanes.Params memory) {
        // PLACEHOLDERS: creator floors/ceiling as eden-core creator defaults; lane weights and φ_LP decided here.
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

    function run() external returns (Deployed memory d) {
        uint256 pk = vm.envOr("DEPLOYER_PRIVATE_KEY", ANVIL_KEY_0);
        address deployer = vm.addr(pk);
        address signer = vm.envOr("EDEN_SIGNER", deployer);
        address adjudicator = vm.envOr("EDEN_ADJUDICATOR", ANVIL_ACCOUNT_9);
        address governor = vm.envOr("EDEN_GOVERNOR", deployer);
        uint256 bond = vm.envOr("EDEN_BOND_WEI", uint256(0.01 ether));
        uint64 firstEpoch = uint64(vm.envOr("EDEN_FIRST_EPOCH", block.timestamp / 1 days));

        vm.startBroadcast(pk);
        d.poolManager = _deployPoolManager(deployer);
        d.registry = address(new EpochRegistry(deployer, signer, adjudicator, bond, firstEpoch));
        d.distributor = address(new HolderDistributor(deployer, deployer));
        FeeLanes lanes =
            new FeeLanes(deployer, EpochRegistry(d.registry), HolderDistributor(d.distributor), placeholderLanes());
        d.feeLanes = address(lanes);
        TestERC20 usd = new TestERC20("USD Coin (local test)", "USDC", 6);
        d.stablecoin = address(usd);

        address predicted = vm.computeCreateAddress(deployer, vm.getNonce(deployer));
        (bytes32 salt,) = LockerSalt.find(predicted, IPoolManager(d.poolManager));
        Launchpad pad = new Launchpad(
            deployer,
            Launchpad.Config({
                poolManager: IPoolManager(d.poolManager),
                lockerSalt: salt,
                supply: SUPPLY,
                feeBps: FEE_BPS,
                ethVirtualQuote: ETH_VIRTUAL_QUOTE,
                poolFee: POOL_FEE,
                tickSpacing: TICK_SPACING,
                feeSink: d.feeLanes
            })
        );
        require(address(pad) == predicted, "Deploy: launchpad address prediction failed");
        d.launchpad = address(pad);
        d.locker = address(pad.locker());
        pad.setQuoteAsset(d.stablecoin, STABLE_VIRTUAL_QUOTE_WHOLE * 10 ** usd.decimals());
        lanes.setLaunchpad(pad);
        lanes.setReceivers(deployer, deployer, deployer);
        d.timelock = address(Governance.deployTimelock(governor));
        if (governor == deployer) {
            Governance.startHandover(TimelockController(payable(d.timelock)), handoverTargets(d), Governance.HANDOVER_SALT_I);
        }
        // Last, so that every address above stays where it was before the router existed.
        d.swapRouter = address(new SwapRouter(IPoolManager(d.poolManager)));
        d.sourceKeyRegistry = address(new SourceKeyRegistry(ILaunchCreators(d.launchpad)));
        // C18: the payout guardian revokes a bad root inside its 24 h review, which the 48 h timelock
        // cannot; never the poster (the deployer here).
        HolderDistributor(d.distributor).setGuardian(vm.envOr("EDEN_PAYOUT_GUARDIAN", ANVIL_ACCOUNT_9));
        vm.stopBroadcast();

        _write(d, deployer, signer, bond, firstEpoch);
    }

    /// @notice The contracts of this half that the timelock takes over.
    function handoverTargets(Deployed memory d) internal pure returns (address[] memory t) {
        t = new address[](4);
        (t[0], t[1], t[2], t[3]) = (d.registry, d.distributor, d.feeLanes, d.launchpad);
    }

    function _deployPoolManager(address owner) internal returns (address pm) {
        bytes memory code = abi.encodePacked(vm.getCode(POOL_MANAGER_ARTIFACT), abi.encode(owner));
        assembly ("memory-safe") {
            pm := create(0, add(code, 0x20), mload(code))
        }
        require(pm != address(0), "Deploy: PoolManager");
    }

    function _write(Deployed memory d, address deployer, address signer, uint256 bond, uint64 firstEpoch) internal {
        string memory k = "eden";
        vm.serializeUint(k, "chainId", block.chainid);
        vm.serializeUint(k, "startBlock", block.number); // logs of these contracts start after this block
        vm.serializeAddress(k, "deployer", deployer);
        vm.serializeAddress(k, "poolManager", d.poolManager);
        vm.serializeAddress(k, "swapRouter", d.swapRouter);
        vm.serializeAddress(k, "sourceKeyRegistry", d.sourceKeyRegistry);
        vm.serializeAddress(k, "epochRegistry", d.registry);
        vm.serializeAddress(k, "holderDistributor", d.distributor);
        vm.serializeAddress(k, "feeLanes", d.feeLanes);
        vm.serializeAddress(k, "launchpad", d.launchpad);
        vm.serializeAddress(k, "launchLocker", d.locker);
        vm.serializeAddress(k, "stablecoin", d.stablecoin);
        vm.serializeAddress(k, "rootSigner", signer);
        vm.serializeAddress(k, "timelock", d.timelock);
        vm.serializeAddress(k, "handoverI", handoverTargets(d));
        vm.serializeString(k, "bondWei", vm.toString(bond));
        vm.serializeUint(k, "firstEpoch", firstEpoch);
        vm.serializeString(k, "supply", vm.toString(SUPPLY));
        vm.serializeUint(k, "feeBps", FEE_BPS);
        vm.serializeUint(k, "poolFee", POOL_FEE);
        vm.serializeInt(k, "tickSpacing", TICK_SPACING);
        vm.serializeString(k, "ethVirtualQuote", vm.toString(ETH_VIRTUAL_QUOTE));
        string memory json =
            vm.serializeString(k, "stablecoinVirtualQuote", vm.toString(STABLE_VIRTUAL_QUOTE_WHOLE * 10 ** 6));
        vm.writeJson(json, string.concat("../.eden/deploy-", vm.toString(block.chainid), ".json"));
    }
}
