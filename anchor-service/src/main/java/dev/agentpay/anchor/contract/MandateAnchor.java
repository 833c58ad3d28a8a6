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
import org.web3j.abi.datatypes.Bool;
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
    public static final String BINARY = "6080604052348015600e575f5ffd5b506040516106b43803806106b4833981016040819052602b9160a0565b6001600160a01b03811660515760405163e5c48ac560e01b815260040160405180910390fd5b6001600160a01b0381165f81815260208190526040808220805460ff19166001179055513392917f12146497b3b826918ec47f0cac7272a09ed06b30c16c030e99ec48ff5dd60b4791a35060cb565b5f6020828403121560af575f5ffd5b81516001600160a01b038116811460c4575f5ffd5b9392505050565b6105dc806100d85f395ff3fe608060405234801561000f575f5ffd5b5060043610610055575f3560e01c80630e316ab7146100595780631a8512ea1461006e578063205878ff146100815780637df73e2714610094578063eb12d61e146100ca575b5f5ffd5b61006c6100673660046103d8565b6100dd565b005b61006c61007c366004610405565b6101b2565b61006c61008f3660046104c4565b610226565b6100b66100a23660046103d8565b5f6020819052908152604090205460ff1681565b604051901515815260200160405180910390f35b61006c6100d83660046103d8565b610314565b335f9081526020819052604090205460ff1661011357604051632a6edb2b60e01b81523360048201526024015b60405180910390fd5b336001600160a01b038216036101475760405163097dafa160e01b81526001600160a01b038216600482015260240161010a565b6001600160a01b0381165f9081526020819052604090205460ff16156101af576001600160a01b0381165f81815260208190526040808220805460ff19169055513392917f98d1ebbe00ae92a5de96a0f49742a8afa89f42363592bc2e7cfaaed68b45e7a691a35b50565b335f9081526020819052604090205460ff166101e357604051632a6edb2b60e01b815233600482015260240161010a565b827f0959946a7bae87f0718bad66b77c43b8342b7c41b73817f357ceca787139a40e838342336040516102199493929190610530565b60405180910390a2505050565b335f9081526020819052604090205460ff1661025757604051632a6edb2b60e01b815233600482015260240161010a565b82818114610282576040516355c5b3e360e11b8152600481018290526024810183905260440161010a565b5f5b8181101561030c5785858281811061029e5761029e610578565b905060200201357f0959946a7bae87f0718bad66b77c43b8342b7c41b73817f357ceca787139a40e8585848181106102d8576102d8610578565b90506020028101906102ea919061058c565b42336040516102fc9493929190610530565b60405180910390a2600101610284565b505050505050565b335f9081526020819052604090205460ff1661034557604051632a6edb2b60e01b815233600482015260240161010a565b6001600160a01b03811661036c5760405163e5c48ac560e01b815260040160405180910390fd5b6001600160a01b0381165f9081526020819052604090205460ff166101af576001600160a01b0381165f81815260208190526040808220805460ff19166001179055513392917f12146497b3b826918ec47f0cac7272a09ed06b30c16c030e99ec48ff5dd60b4791a350565b5f602082840312156103e8575f5ffd5b81356001600160a01b03811681146103fe575f5ffd5b9392505050565b5f5f5f60408486031215610417575f5ffd5b83359250602084013567ffffffffffffffff811115610434575f5ffd5b8401601f81018613610444575f5ffd5b803567ffffffffffffffff81111561045a575f5ffd5b86602082840101111561046b575f5ffd5b939660209190910195509293505050565b5f5f83601f84011261048c575f5ffd5b50813567ffffffffffffffff8111156104a3575f5ffd5b6020830191508360208260051b85010111156104bd575f5ffd5b9250929050565b5f5f5f5f604085870312156104d7575f5ffd5b843567ffffffffffffffff8111156104ed575f5ffd5b6104f98782880161047c565b909550935050602085013567ffffffffffffffff811115610518575f5ffd5b6105248782880161047c565b95989497509550505050565b60608152836060820152838560808301375f608085830181019190915260208201939093526001600160a01b03919091166040820152601f909201601f191690910101919050565b634e487b7160e01b5f52603260045260245ffd5b5f5f8335601e198436030181126105a1575f5ffd5b83018035915067ffffffffffffffff8211156105bb575f5ffd5b6020019150368190038213156104bd575f5ffdfea164736f6c634300081e000a";

    private static String librariesLinkedBinary;

    public static final String FUNC_ADDSIGNER = "addSigner";

    public static final String FUNC_ANCHOR = "anchor";

    public static final String FUNC_ANCHORBATCH = "anchorBatch";

    public static final String FUNC_ISSIGNER = "isSigner";

    public static final String FUNC_REMOVESIGNER = "removeSigner";

    public static final Event MANDATEANCHORED_EVENT = new Event("MandateAnchored", 
            Arrays.<TypeReference<?>>asList(new TypeReference<Bytes32>(true) {}, new TypeReference<Utf8String>() {}, new TypeReference<Uint256>() {}, new TypeReference<Address>() {}));
    ;

    public static final Event SIGNERADDED_EVENT = new Event("SignerAdded", 
            Arrays.<TypeReference<?>>asList(new TypeReference<Address>(true) {}, new TypeReference<Address>(true) {}));
    ;

    public static final Event SIGNERREMOVED_EVENT = new Event("SignerRemoved", 
            Arrays.<TypeReference<?>>asList(new TypeReference<Address>(true) {}, new TypeReference<Address>(true) {}));
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

    public static List<SignerAddedEventResponse> getSignerAddedEvents(
            TransactionReceipt transactionReceipt) {
        List<Contract.EventValuesWithLog> valueList = staticExtractEventParametersWithLog(SIGNERADDED_EVENT, transactionReceipt);
        ArrayList<SignerAddedEventResponse> responses = new ArrayList<SignerAddedEventResponse>(valueList.size());
        for (Contract.EventValuesWithLog eventValues : valueList) {
            SignerAddedEventResponse typedResponse = new SignerAddedEventResponse();
            typedResponse.log = eventValues.getLog();
            typedResponse.signer = (String) eventValues.getIndexedValues().get(0).getValue();
            typedResponse.by = (String) eventValues.getIndexedValues().get(1).getValue();
            responses.add(typedResponse);
        }
        return responses;
    }

    public static SignerAddedEventResponse getSignerAddedEventFromLog(Log log) {
        Contract.EventValuesWithLog eventValues = staticExtractEventParametersWithLog(SIGNERADDED_EVENT, log);
        SignerAddedEventResponse typedResponse = new SignerAddedEventResponse();
        typedResponse.log = log;
        typedResponse.signer = (String) eventValues.getIndexedValues().get(0).getValue();
        typedResponse.by = (String) eventValues.getIndexedValues().get(1).getValue();
        return typedResponse;
    }

    public Flowable<SignerAddedEventResponse> signerAddedEventFlowable(EthFilter filter) {
        return web3j.ethLogFlowable(filter).map(log -> getSignerAddedEventFromLog(log));
    }

    public Flowable<SignerAddedEventResponse> signerAddedEventFlowable(
            DefaultBlockParameter startBlock, DefaultBlockParameter endBlock) {
        EthFilter filter = new EthFilter(startBlock, endBlock, getContractAddress());
        filter.addSingleTopic(EventEncoder.encode(SIGNERADDED_EVENT));
        return signerAddedEventFlowable(filter);
    }

    public static List<SignerRemovedEventResponse> getSignerRemovedEvents(
            TransactionReceipt transactionReceipt) {
        List<Contract.EventValuesWithLog> valueList = staticExtractEventParametersWithLog(SIGNERREMOVED_EVENT, transactionReceipt);
        ArrayList<SignerRemovedEventResponse> responses = new ArrayList<SignerRemovedEventResponse>(valueList.size());
        for (Contract.EventValuesWithLog eventValues : valueList) {
            SignerRemovedEventResponse typedResponse = new SignerRemovedEventResponse();
            typedResponse.log = eventValues.getLog();
            typedResponse.signer = (String) eventValues.getIndexedValues().get(0).getValue();
            typedResponse.by = (String) eventValues.getIndexedValues().get(1).getValue();
            responses.add(typedResponse);
        }
        return responses;
    }

    public static SignerRemovedEventResponse getSignerRemovedEventFromLog(Log log) {
        Contract.EventValuesWithLog eventValues = staticExtractEventParametersWithLog(SIGNERREMOVED_EVENT, log);
        SignerRemovedEventResponse typedResponse = new SignerRemovedEventResponse();
        typedResponse.log = log;
        typedResponse.signer = (String) eventValues.getIndexedValues().get(0).getValue();
        typedResponse.by = (String) eventValues.getIndexedValues().get(1).getValue();
        return typedResponse;
    }

    public Flowable<SignerRemovedEventResponse> signerRemovedEventFlowable(EthFilter filter) {
        return web3j.ethLogFlowable(filter).map(log -> getSignerRemovedEventFromLog(log));
    }

    public Flowable<SignerRemovedEventResponse> signerRemovedEventFlowable(
            DefaultBlockParameter startBlock, DefaultBlockParameter endBlock) {
        EthFilter filter = new EthFilter(startBlock, endBlock, getContractAddress());
        filter.addSingleTopic(EventEncoder.encode(SIGNERREMOVED_EVENT));
        return signerRemovedEventFlowable(filter);
    }

    public RemoteFunctionCall<TransactionReceipt> addSigner(String next) {
        final Function function = new Function(
                FUNC_ADDSIGNER, 
                Arrays.<Type>asList(new org.web3j.abi.datatypes.Address(160, next)), 
                Collections.<TypeReference<?>>emptyList());
        return executeRemoteCallTransaction(function);
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

    public RemoteFunctionCall<Boolean> isSigner(String param0) {
        final Function function = new Function(FUNC_ISSIGNER, 
                Arrays.<Type>asList(new org.web3j.abi.datatypes.Address(160, param0)), 
                Arrays.<TypeReference<?>>asList(new TypeReference<Bool>() {}));
        return executeRemoteCallSingleValueReturn(function, Boolean.class);
    }

    public RemoteFunctionCall<TransactionReceipt> removeSigner(String old) {
        final Function function = new Function(
                FUNC_REMOVESIGNER, 
                Arrays.<Type>asList(new org.web3j.abi.datatypes.Address(160, old)), 
                Collections.<TypeReference<?>>emptyList());
        return executeRemoteCallTransaction(function);
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

    public static class SignerAddedEventResponse extends BaseEventResponse {
        public String signer;

        public String by;
    }

    public static class SignerRemovedEventResponse extends BaseEventResponse {
        public String signer;

        public String by;
    }
}
