package dev.agentpay.anchor.contract;

import io.reactivex.Flowable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.web3j.abi.EventEncoder;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Event;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.Utf8String;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.RemoteCall;
import org.web3j.protocol.core.RemoteFunctionCall;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.BaseEventResponse;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.tx.Contract;
import org.web3j.tx.TransactionManager;
import org.web3j.tx.gas.ContractGasProvider;

/**
 * <p>Auto generated code.
 * <p><strong>Do not modify!</strong>
 * <p>Please use the <a href="https://docs.web3j.io/command_line.html">web3j command line tools</a>,
 * or the org.web3j.codegen.SolidityFunctionWrapperGenerator in the 
 * <a href="https://github.com/hyperledger-web3j/web3j/tree/main/codegen">codegen module</a> to update.
 *
 * <p>Generated with web3j version 4.13.0.
 */
@SuppressWarnings("rawtypes")
public class MandateAnchor extends Contract {
    public static final String BINARY = "60a060405234801561000f575f5ffd5b506040516104d73803806104d783398101604081905261002e91610066565b6001600160a01b0381166100555760405163e5c48ac560e01b815260040160405180910390fd5b6001600160a01b0316608052610093565b5f60208284031215610076575f5ffd5b81516001600160a01b038116811461008c575f5ffd5b9392505050565b6080516104206100b75f395f818160700152818160b9015261014c01526104205ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80631a8512ea14610043578063205878ff14610058578063238ac9331461006b575b5f5ffd5b610056610051366004610249565b6100ae565b005b610056610066366004610308565b610141565b6100927f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b03909116815260200160405180910390f35b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146100fe57604051632a6edb2b60e01b81523360048201526024015b60405180910390fd5b827f0959946a7bae87f0718bad66b77c43b8342b7c41b73817f357ceca787139a40e838342336040516101349493929190610374565b60405180910390a2505050565b336001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000161461018c57604051632a6edb2b60e01b81523360048201526024016100f5565b828181146101b7576040516355c5b3e360e11b815260048101829052602481018390526044016100f5565b5f5b81811015610241578585828181106101d3576101d36103bc565b905060200201357f0959946a7bae87f0718bad66b77c43b8342b7c41b73817f357ceca787139a40e85858481811061020d5761020d6103bc565b905060200281019061021f91906103d0565b42336040516102319493929190610374565b60405180910390a26001016101b9565b505050505050565b5f5f5f6040848603121561025b575f5ffd5b83359250602084013567ffffffffffffffff811115610278575f5ffd5b8401601f81018613610288575f5ffd5b803567ffffffffffffffff81111561029e575f5ffd5b8660208284010111156102af575f5ffd5b939660209190910195509293505050565b5f5f83601f8401126102d0575f5ffd5b50813567ffffffffffffffff8111156102e7575f5ffd5b6020830191508360208260051b8501011115610301575f5ffd5b9250929050565b5f5f5f5f6040858703121561031b575f5ffd5b843567ffffffffffffffff811115610331575f5ffd5b61033d878288016102c0565b909550935050602085013567ffffffffffffffff81111561035c575f5ffd5b610368878288016102c0565b95989497509550505050565b60608152836060820152838560808301375f608085830181019190915260208201939093526001600160a01b03919091166040820152601f909201601f191690910101919050565b634e487b7160e01b5f52603260045260245ffd5b5f5f8335601e198436030181126103e5575f5ffd5b83018035915067ffffffffffffffff8211156103ff575f5ffd5b602001915036819003821315610301575f5ffdfea164736f6c634300081e000a";

    private static String librariesLinkedBinary;

    public static final String FUNC_ANCHOR = "anchor";

    public static final String FUNC_ANCHORBATCH = "anchorBatch";

    public static final String FUNC_SIGNER = "signer";

    public static final Event MANDATEANCHORED_EVENT = new Event("MandateAnchored", 
            Arrays.<TypeReference<?>>asList(new TypeReference<Bytes32>(true) {}, new TypeReference<Utf8String>() {}, new TypeReference<Uint256>() {}, new TypeReference<Address>() {}));
    ;

    @Deprecated
    protected MandateAnchor(String contractAddress, Web3j web3j, Credentials credentials,
            BigInteger gasPrice, BigInteger gasLimit) {
        super(BINARY, contractAddress, web3j, credentials, gasPrice, gasLimit);
    }

    protected MandateAnchor(String contractAddress, Web3j web3j, Credentials credentials,
            ContractGasProvider contractGasProvider) {
        super(BINARY, contractAddress, web3j, credentials, contractGasProvider);
    }

    @Deprecated
    protected MandateAnchor(String contractAddress, Web3j web3j,
            TransactionManager transactionManager, BigInteger gasPrice, BigInteger gasLimit) {
        super(BINARY, contractAddress, web3j, transactionManager, gasPrice, gasLimit);
    }

    protected MandateAnchor(String contractAddress, Web3j web3j,
            TransactionManager transactionManager, ContractGasProvider contractGasProvider) {
        super(BINARY, contractAddress, web3j, transactionManager, contractGasProvider);
    }

    public static List<MandateAnchoredEventResponse> getMandateAnchoredEvents(
            TransactionReceipt transactionReceipt) {
        List<Contract.EventValuesWithLog> valueList = staticExtractEventParametersWithLog(MANDATEANCHORED_EVENT, transactionReceipt);
        ArrayList<MandateAnchoredEventResponse> responses = new ArrayList<MandateAnchoredEventResponse>(valueList.size());
        for (Contract.EventValuesWithLog eventValues : valueList) {
            MandateAnchoredEventResponse typedResponse = new MandateAnchoredEventResponse();
            typedResponse.log = eventValues.getLog();
            typedResponse.mandateHash = (byte[]) eventValues.getIndexedValues().get(0).getValue();
            typedResponse.state = (String) eventValues.getNonIndexedValues().get(0).getValue();
            typedResponse.ts = (BigInteger) eventValues.getNonIndexedValues().get(1).getValue();
            typedResponse.sender = (String) eventValues.getNonIndexedValues().get(2).getValue();
            responses.add(typedResponse);
        }
        return responses;
    }

    public static MandateAnchoredEventResponse getMandateAnchoredEventFromLog(Log log) {
        Contract.EventValuesWithLog eventValues = staticExtractEventParametersWithLog(MANDATEANCHORED_EVENT, log);
        MandateAnchoredEventResponse typedResponse = new MandateAnchoredEventResponse();
        typedResponse.log = log;
        typedResponse.mandateHash = (byte[]) eventValues.getIndexedValues().get(0).getValue();
        typedResponse.state = (String) eventValues.getNonIndexedValues().get(0).getValue();
        typedResponse.ts = (BigInteger) eventValues.getNonIndexedValues().get(1).getValue();
        typedResponse.sender = (String) eventValues.getNonIndexedValues().get(2).getValue();
        return typedResponse;
    }

    public Flowable<MandateAnchoredEventResponse> mandateAnchoredEventFlowable(EthFilter filter) {
        return web3j.ethLogFlowable(filter).map(log -> getMandateAnchoredEventFromLog(log));
    }

    public Flowable<MandateAnchoredEventResponse> mandateAnchoredEventFlowable(
            DefaultBlockParameter startBlock, DefaultBlockParameter endBlock) {
        EthFilter filter = new EthFilter(startBlock, endBlock, getContractAddress());
        filter.addSingleTopic(EventEncoder.encode(MANDATEANCHORED_EVENT));
        return mandateAnchoredEventFlowable(filter);
    }

    public RemoteFunctionCall<TransactionReceipt> anchor(byte[] mandateHash, String state) {
        final Function function = new Function(
                FUNC_ANCHOR, 
                Arrays.<Type>asList(new org.web3j.abi.datatypes.generated.Bytes32(mandateHash), 
                new org.web3j.abi.datatypes.Utf8String(state)), 
                Collections.<TypeReference<?>>emptyList());
        return executeRemoteCallTransaction(function);
    }

    public RemoteFunctionCall<TransactionReceipt> anchorBatch(List<byte[]> mandateHashes,
            List<String> states) {
        final Function function = new Function(
                FUNC_ANCHORBATCH, 
                Arrays.<Type>asList(new org.web3j.abi.datatypes.DynamicArray<org.web3j.abi.datatypes.generated.Bytes32>(
                        org.web3j.abi.datatypes.generated.Bytes32.class,
                        org.web3j.abi.Utils.typeMap(mandateHashes, org.web3j.abi.datatypes.generated.Bytes32.class)), 
                new org.web3j.abi.datatypes.DynamicArray<org.web3j.abi.datatypes.Utf8String>(
                        org.web3j.abi.datatypes.Utf8String.class,
                        org.web3j.abi.Utils.typeMap(states, org.web3j.abi.datatypes.Utf8String.class))), 
                Collections.<TypeReference<?>>emptyList());
        return executeRemoteCallTransaction(function);
    }

    public RemoteFunctionCall<String> signer() {
        final Function function = new Function(FUNC_SIGNER, 
                Arrays.<Type>asList(), 
                Arrays.<TypeReference<?>>asList(new TypeReference<Address>() {}));
        return executeRemoteCallSingleValueReturn(function, String.class);
    }

    @Deprecated
    public static MandateAnchor load(String contractAddress, Web3j web3j, Credentials credentials,
            BigInteger gasPrice, BigInteger gasLimit) {
        return new MandateAnchor(contractAddress, web3j, credentials, gasPrice, gasLimit);
    }

    @Deprecated
    public static MandateAnchor load(String contractAddress, Web3j web3j,
            TransactionManager transactionManager, BigInteger gasPrice, BigInteger gasLimit) {
        return new MandateAnchor(contractAddress, web3j, transactionManager, gasPrice, gasLimit);
    }

    public static MandateAnchor load(String contractAddress, Web3j web3j, Credentials credentials,
            ContractGasProvider contractGasProvider) {
        return new MandateAnchor(contractAddress, web3j, credentials, contractGasProvider);
    }

    public static MandateAnchor load(String contractAddress, Web3j web3j,
            TransactionManager transactionManager, ContractGasProvider contractGasProvider) {
        return new MandateAnchor(contractAddress, web3j, transactionManager, contractGasProvider);
    }

    public static RemoteCall<MandateAnchor> deploy(Web3j web3j, Credentials credentials,
            ContractGasProvider contractGasProvider, String signer_) {
        String encodedConstructor = FunctionEncoder.encodeConstructor(Arrays.<Type>asList(new org.web3j.abi.datatypes.Address(160, signer_)));
        return deployRemoteCall(MandateAnchor.class, web3j, credentials, contractGasProvider, getDeploymentBinary(), encodedConstructor);
    }

    public static RemoteCall<MandateAnchor> deploy(Web3j web3j,
            TransactionManager transactionManager, ContractGasProvider contractGasProvider,
            String signer_) {
        String encodedConstructor = FunctionEncoder.encodeConstructor(Arrays.<Type>asList(new org.web3j.abi.datatypes.Address(160, signer_)));
        return deployRemoteCall(MandateAnchor.class, web3j, transactionManager, contractGasProvider, getDeploymentBinary(), encodedConstructor);
    }

    @Deprecated
    public static RemoteCall<MandateAnchor> deploy(Web3j web3j, Credentials credentials,
            BigInteger gasPrice, BigInteger gasLimit, String signer_) {
        String encodedConstructor = FunctionEncoder.encodeConstructor(Arrays.<Type>asList(new org.web3j.abi.datatypes.Address(160, signer_)));
        return deployRemoteCall(MandateAnchor.class, web3j, credentials, gasPrice, gasLimit, getDeploymentBinary(), encodedConstructor);
    }

    @Deprecated
    public static RemoteCall<MandateAnchor> deploy(Web3j web3j,
            TransactionManager transactionManager, BigInteger gasPrice, BigInteger gasLimit,
            String signer_) {
        String encodedConstructor = FunctionEncoder.encodeConstructor(Arrays.<Type>asList(new org.web3j.abi.datatypes.Address(160, signer_)));
        return deployRemoteCall(MandateAnchor.class, web3j, transactionManager, gasPrice, gasLimit, getDeploymentBinary(), encodedConstructor);
    }

    public static void linkLibraries(List<Contract.LinkReference> references) {
        librariesLinkedBinary = linkBinaryWithReferences(BINARY, references);
    }

    private static String getDeploymentBinary() {
        if (librariesLinkedBinary != null) {
            return librariesLinkedBinary;
        } else {
            return BINARY;
        }
    }

    public static class MandateAnchoredEventResponse extends BaseEventResponse {
        public byte[] mandateHash;

        public String state;

        public BigInteger ts;

        public String sender;
    }
}
